import type { Statement } from 'better-sqlite3';
import { dayMs, filingWindowDays } from '../filing-rules/filing-window.js';
import { eventTypeFor } from './rules/network-moves.js';
import { outcomePath, type OutcomeMove } from './rules/outcome-paths.js';
import type { SandboxDatabase } from './store/database.js';
import { findCase, readDocument, saveCaseStatus, type CaseRow, type Environment } from './store/records.js';

/**
 * What the schedule needs of the sandbox: its storage, its clock, its transactions and its events.
 * The sandbox's core gives them; named here so that the schedule does not import the core that
 * holds it (no circle).
 */
export interface OutcomeHost {
  readonly database: SandboxDatabase;
  now(): number;
  transaction<Result>(work: () => Result): Result;
  recordEvent(environment: Environment, type: string, caseId: string): number;
}

/**
 * `--outcomes`: the card networks' side, played on the sandbox clock. Each case filed gets its
 * path of moves (rules/outcome-paths.ts), kept in the `outcome_paths` table so that a restarted
 * sandbox still has it; the moves happen once the sandbox clock has passed them.
 *
 * A path holds only while the case is where the path left it: a case withdrawn or advanced by
 * hand no longer is, and the rest of its path is dropped when its next move comes due (the
 * network moves only forward, so a case moved otherwise never comes back to that status). A
 * reset deletes its environment's paths with the rest.
 */

/** Moves applied per transaction: one commit per batch keeps a catch-up over 100,000 cases in bounded transactions. */
const batchSize = 2000;

interface PathRow {
  environment: Environment;
  case_id: string;
  next_at_ms: number;
  step: number;
  moves: string;
}

/** A path being worked through in a batch: its next move is `moves[step]`, due at `atMs`. */
interface Pending {
  environment: Environment;
  caseId: string;
  moves: OutcomeMove[];
  step: number;
  atMs: number;
  /** Order of arrival, for moves due in the same millisecond. */
  order: number;
}

export class OutcomeSchedule {
  /**
   * No move is due before this (sandbox clock, ms): lets every request skip the database while
   * nothing is due. It may be early (a filing rolled back, a path dropped), never late: an
   * early one costs one query that finds nothing.
   */
  private nextDueMs: number;
  private running: Promise<void> | undefined;
  private closed = false;
  private readonly insert: Statement;
  private readonly selectDue: Statement;
  private readonly update: Statement;
  private readonly remove: Statement;
  private readonly earliest: Statement;

  constructor(
    private readonly core: OutcomeHost,
    readonly seed: number,
    private readonly onError: (error: unknown) => void,
  ) {
    const database = core.database;
    this.insert = database.prepare(
      'INSERT OR REPLACE INTO outcome_paths (environment, case_id, next_at_ms, step, moves) VALUES (?, ?, ?, 0, ?)',
    );
    this.selectDue = database.prepare(
      'SELECT environment, case_id, next_at_ms, step, moves FROM outcome_paths WHERE next_at_ms <= ? ORDER BY next_at_ms, environment, case_id LIMIT ?',
    );
    this.update = database.prepare(
      'UPDATE outcome_paths SET next_at_ms = ?, step = ? WHERE environment = ? AND case_id = ?',
    );
    this.remove = database.prepare('DELETE FROM outcome_paths WHERE environment = ? AND case_id = ?');
    this.earliest = database.prepare('SELECT MIN(next_at_ms) AS at FROM outcome_paths').pluck();
    this.nextDueMs = this.earliestDue();
  }

  /** Draws and keeps the path of a case just filed at `filedAt` (ISO). Call inside the filing's transaction. */
  schedule(row: CaseRow, filedAt: string): void {
    const filedAtMs = Date.parse(filedAt);
    const moves = outcomePath(this.seed, row.case_id, filedAtMs, resolutionDueMs(row, filedAtMs));
    const first = moves[0];
    if (first === undefined) return;
    this.insert.run(row.environment, row.case_id, first.atMs, JSON.stringify(moves));
    this.nextDueMs = Math.min(this.nextDueMs, first.atMs);
  }

  /**
   * Applies every move the sandbox clock has passed, in the order of their times across cases.
   * Undefined when none is due (nearly every request: a comparison, no query). Otherwise the
   * catch-up, one transaction per batch; a second caller meanwhile waits for the same one. A
   * failure (a full disk) is reported, never thrown: the moves stay scheduled for the next try.
   */
  applyDue(): Promise<void> | undefined {
    if (this.running !== undefined) return this.running;
    if (this.closed || this.core.now() < this.nextDueMs) return undefined;
    this.running = this.catchUp().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops at the end of the batch in progress; settles once no batch runs. */
  async close(): Promise<void> {
    this.closed = true;
    await this.running;
  }

  private async catchUp(): Promise<void> {
    try {
      for (;;) {
        // A closing sandbox stops between batches: what is not made yet stays scheduled.
        if (this.closed) return;
        const nowMs = this.core.now();
        const selected = this.core.transaction(() => this.applyBatch(nowMs));
        if (selected < batchSize) break;
        // The batch's group commits before the next batch begins (SandboxCore.transaction).
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      this.nextDueMs = this.earliestDue();
    } catch (error) {
      this.onError(error);
    }
  }

  /**
   * One batch: the first `batchSize` paths due, and any later move of theirs that is due before
   * the batch's last one, so that moves stay in time order across batches. Returns how many
   * paths were selected.
   */
  private applyBatch(nowMs: number): number {
    const rows = this.selectDue.all(nowMs, batchSize) as PathRow[];
    // A full batch may leave paths due after its last one for the next batch: no move of the
    // batch may pass them. A partial one holds every path due.
    const boundaryMs =
      rows.length < batchSize ? Number.POSITIVE_INFINITY : (rows.at(-1)?.next_at_ms ?? Number.POSITIVE_INFINITY);
    const queue = new MoveQueue();
    for (const row of rows) {
      queue.push({
        environment: row.environment,
        caseId: row.case_id,
        moves: JSON.parse(row.moves) as OutcomeMove[],
        step: row.step,
        atMs: row.next_at_ms,
        order: 0,
      });
    }
    for (let pending = queue.pop(); pending !== undefined; pending = queue.pop()) {
      if (!this.applyNext(pending)) {
        this.remove.run(pending.environment, pending.caseId);
        continue;
      }
      const next = pending.moves[pending.step];
      if (next === undefined) {
        this.remove.run(pending.environment, pending.caseId);
      } else if (next.atMs <= nowMs && next.atMs < boundaryMs) {
        pending.atMs = next.atMs;
        queue.push(pending);
      } else {
        this.update.run(next.atMs, pending.step, pending.environment, pending.caseId);
      }
    }
    return rows.length;
  }

  /**
   * Makes the path's next move on its case, with its events, if the case is still in the status
   * the path left it in; false when it is not (the rest of the path is then dropped).
   */
  private applyNext(pending: Pending): boolean {
    const move = pending.moves[pending.step];
    const row = findCase(this.core.database, pending.environment, pending.caseId);
    const expected = pending.step === 0 ? 'chargeback_filed' : pending.moves[pending.step - 1]?.status;
    if (move === undefined || row === undefined || row.status !== expected) return false;
    const document = readDocument(row);
    if (move.closedReason !== undefined) document.closed_reason = move.closedReason;
    if (move.resolutionDueMs !== undefined) document[dueDateField(row)] = new Date(move.resolutionDueMs).toISOString();
    if (move.needsReview === true) document.review_status = 'chargeback_needs_review';
    saveCaseStatus(this.core.database, row, move.status, document);
    this.core.recordEvent(row.environment, eventTypeFor(move.status), row.case_id);
    if (move.needsReview === true) this.core.recordEvent(row.environment, 'case.chargeback_needs_review', row.case_id);
    pending.step++;
    return true;
  }

  private earliestDue(): number {
    const at = this.earliest.get() as number | null;
    return at ?? Number.POSITIVE_INFINITY;
  }
}

/** v2 cases keep `resolution_due_date`; v1 cases `chargeback_due_date`, which the v2 view shows as it. */
function dueDateField(row: CaseRow): string {
  return row.api_version === 1 ? 'chargeback_due_date' : 'resolution_due_date';
}

/** The case's due date at filing; a case without a readable one is given the usual 120 days from filing. */
function resolutionDueMs(row: CaseRow, filedAtMs: number): number {
  const due = readDocument(row)[dueDateField(row)];
  const dueMs = typeof due === 'string' ? Date.parse(due) : Number.NaN;
  return Number.isNaN(dueMs) ? filedAtMs + filingWindowDays * dayMs : dueMs;
}

/** The batch's pending moves, earliest first (a binary heap: a batch holds thousands). */
class MoveQueue {
  private readonly heap: Pending[] = [];
  private arrivals = 0;

  push(pending: Pending): void {
    pending.order = this.arrivals++;
    const heap = this.heap;
    heap.push(pending);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(pending, heap[parent] as Pending)) break;
      heap[index] = heap[parent] as Pending;
      index = parent;
    }
    heap[index] = pending;
  }

  pop(): Pending | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right] as Pending, heap[left] as Pending) ? right : left;
      if (!before(heap[child] as Pending, last)) break;
      heap[index] = heap[child] as Pending;
      index = child;
    }
    heap[index] = last;
    return top;
  }
}

function before(a: Pending, b: Pending): boolean {
  return a.atMs < b.atMs || (a.atMs === b.atMs && a.order < b.order);
}
