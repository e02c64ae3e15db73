import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finalStatuses, parseState } from '../job-files/track/case-state.js';

/**
 * What the tool last saw of each case at the service, gathered from the track journals and the
 * withdraw journals among the files pruned (docs/data.md, "Retention"): whether it is closed,
 * and since when. A case no journal saw closed is open or unknown, and its job is left alone.
 *
 * Kept in a SQLite file of its own in a private temporary folder, not in memory: a year of
 * nights is hundreds of thousands of cases.
 */
export interface CaseSeen {
  /** When it closed (decided, withdrawn, or gone from the service), ISO 8601; null while open. */
  readonly closedAt: string | null;
  /** When it was last read, ISO 8601. */
  readonly seenAt: string;
}

export class CaseBook {
  private constructor(
    private readonly folder: string,
    private readonly database: Database.Database,
  ) {}

  static async open(): Promise<CaseBook> {
    const folder = await mkdtemp(join(tmpdir(), 'bulk-disputes-prune-'));
    const database = new Database(join(folder, 'cases.sqlite'));
    database.pragma('journal_mode = OFF');
    database.pragma('synchronous = OFF');
    database.exec('CREATE TABLE cases (case_id TEXT PRIMARY KEY, closed_at TEXT, seen_at TEXT NOT NULL) WITHOUT ROWID');
    return new CaseBook(folder, database);
  }

  /** What a track journal last read of its cases. */
  addTrackJournal(track: Database.Database): void {
    const cases = track
      .prepare(
        `SELECT c.case_id, c.state, c.decided_at, c.missing, coalesce(r.ended, r.started) AS read_at
         FROM track_cases c LEFT JOIN track_runs r ON r.run = c.read_run WHERE c.state IS NOT NULL OR c.missing = 1`,
      )
      .iterate() as IterableIterator<{
      case_id: string;
      state: string | null;
      decided_at: string | null;
      missing: number;
      read_at: string | null;
    }>;
    this.addAll(
      (function* () {
        for (const found of cases) {
          const seenAt = found.read_at ?? found.decided_at ?? new Date(0).toISOString();
          const closed =
            found.missing === 1 || (found.state !== null && finalStatuses.has(parseState(found.state).status));
          yield { caseId: found.case_id, closedAt: closed ? (found.decided_at ?? seenAt) : null, seenAt };
        }
      })(),
    );
  }

  /** The cases a withdraw journal took back: closed by it, when its journal was last written. */
  addWithdrawJournal(withdraw: Database.Database, writtenAt: Date): void {
    const at = writtenAt.toISOString();
    const lines = withdraw
      .prepare(
        "SELECT DISTINCT case_id FROM withdraw_lines WHERE case_id <> '' AND outcome IN ('withdrawn', 'deleted', 'already_closed', 'not_found')",
      )
      .pluck()
      .iterate() as IterableIterator<string>;
    this.addAll(
      (function* () {
        for (const caseId of lines) yield { caseId, closedAt: at, seenAt: at };
      })(),
    );
  }

  private addAll(cases: Iterable<{ caseId: string; closedAt: string | null; seenAt: string }>): void {
    // The latest reading of a case wins: a case read open after it was read closed was reopened.
    const put = this.database.prepare(
      `INSERT INTO cases (case_id, closed_at, seen_at) VALUES (?, ?, ?)
       ON CONFLICT (case_id) DO UPDATE SET closed_at = excluded.closed_at, seen_at = excluded.seen_at
       WHERE excluded.seen_at > cases.seen_at`,
    );
    const batch: { caseId: string; closedAt: string | null; seenAt: string }[] = [];
    const flush = this.database.transaction(() => {
      for (const found of batch) put.run(found.caseId, found.closedAt, found.seenAt);
      batch.length = 0;
    });
    for (const found of cases) {
      batch.push(found);
      if (batch.length >= 5000) flush();
    }
    flush();
  }

  /**
   * The cases named, as seen: how many are open, how many no journal saw, and the last closing
   * among the rest. `caseIds` is read once, as it comes.
   */
  tally(caseIds: Iterable<string>): CaseTally {
    const get = this.database.prepare('SELECT closed_at, seen_at FROM cases WHERE case_id = ?');
    const tally: CaseTally = { cases: 0, open: 0, unseen: 0, lastClosedAt: undefined, lastSeenAt: undefined };
    for (const caseId of caseIds) {
      tally.cases++;
      const found = get.get(caseId) as { closed_at: string | null; seen_at: string } | undefined;
      if (found === undefined) {
        tally.unseen++;
        continue;
      }
      if (tally.lastSeenAt === undefined || found.seen_at > tally.lastSeenAt) tally.lastSeenAt = found.seen_at;
      if (found.closed_at === null) tally.open++;
      else if (tally.lastClosedAt === undefined || found.closed_at > tally.lastClosedAt)
        tally.lastClosedAt = found.closed_at;
    }
    return tally;
  }

  async close(): Promise<void> {
    this.database.close();
    await rm(this.folder, { recursive: true, force: true });
  }
}

export interface CaseTally {
  cases: number;
  open: number;
  /** Named by the job, read by no track journal found. */
  unseen: number;
  lastClosedAt: string | undefined;
  lastSeenAt: string | undefined;
}
