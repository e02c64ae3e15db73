import { noFaults, type FaultInjector } from './faults/fault-injector.js';
import { OutcomeSchedule } from './outcomes.js';
import { defaultWorkflowRules, type WorkflowRules } from './rules/workflow-rules.js';
import { blobStoreFor, type BlobStore } from './store/blobs.js';
import type { SandboxDatabase } from './store/database.js';
import { IdSource, type IdPrefix } from './store/ids.js';
import { insertEvent, type Environment } from './store/records.js';

export type { IdPrefix } from './store/ids.js';

/** An event as the service lists it and as webhooks deliver it (docs/sandbox.md, "Events"). */
export interface SandboxEvent {
  environment: Environment;
  event_id: string;
  type: string;
  created: string;
  data: { case_id: string };
}

export type EventListener = (event: SandboxEvent) => void;

/** The open group of writes: committed at the end of the turn, then its events published. */
interface OpenGroup {
  readonly committed: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
  readonly events: SandboxEvent[];
  /** Set when a unit's writes could not be taken back alone (`insertOnly`): the group is rolled back, not committed. */
  failure?: Error;
}

/** How far the control prefix may move the clock in all: 100 years. */
export const maxClockOffsetMs = 100 * 365 * 24 * 60 * 60 * 1000;

export interface SandboxCoreOptions {
  database: SandboxDatabase;
  /** The sandbox's clock: injectable, and movable later through the control prefix. */
  now?: () => number;
  /** How long run_workflow "evaluates" before it files: the window in which a second call is refused. */
  workflowDelayMs?: number;
  /** Where a failure of delayed work goes; it must never end the process. */
  onBackgroundError?: (error: unknown) => void;
  faults?: FaultInjector;
  /** Workflow rules for `file_mode: auto` and run_workflow; default: file every valid case. */
  rules?: WorkflowRules;
  /** Uploaded contents; default: in the database's `blobs` table. */
  blobs?: BlobStore;
  /** Told after every commit (store/checkpoints.ts: WAL checkpoints off the event loop). */
  afterCommit?: () => void;
  /** `--outcomes`: filed cases move on the sandbox clock along paths drawn from this seed. */
  outcomes?: { seed: number } | undefined;
}

/**
 * What every handler shares: storage, the clock, ids, events, and the run_workflow timers.
 * Handlers change state only inside `transaction`, so a response is written after its commit.
 */
export class SandboxCore {
  readonly database: SandboxDatabase;
  readonly workflowDelayMs: number;
  /** What goes wrong on purpose; replaceable at run time through the control prefix. */
  faults: FaultInjector;
  readonly rules: WorkflowRules;
  readonly blobs: BlobStore;
  /** `--outcomes` only: the card networks' moves on filed cases, as the clock passes them. */
  readonly outcomes: OutcomeSchedule | undefined;
  /** How far the control prefix has moved the clock (filing windows, due dates). */
  private clockOffsetMs = 0;
  private readonly clock: () => number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly onBackgroundError: (error: unknown) => void;
  private readonly afterCommit: () => void;
  private closed = false;
  /** Events recorded by the transaction in progress, published once its group commits. */
  private pendingEvents: SandboxEvent[] = [];
  /** The writes of this turn of the event loop, committed together (see `transaction`). */
  private group: OpenGroup | undefined;
  private readonly eventListeners: EventListener[] = [];
  /** One better-sqlite3 transaction function for every call: making one costs more than running it. */
  private readonly runInTransaction: <Result>(work: () => Result) => Result;
  private readonly ids = new IdSource();
  /** The last `nowIso()`, and the millisecond it is for. */
  private isoMs = Number.NaN;
  private iso = '';

  constructor(options: SandboxCoreOptions) {
    this.database = options.database;
    const inTransaction = this.database.transaction((work: () => unknown) => work());
    this.runInTransaction = <Result>(work: () => Result) => inTransaction(work) as Result;
    this.clock = options.now ?? Date.now;
    this.workflowDelayMs = options.workflowDelayMs ?? 200;
    this.onBackgroundError = options.onBackgroundError ?? (() => undefined);
    this.afterCommit = options.afterCommit ?? (() => undefined);
    this.faults = options.faults ?? noFaults;
    this.rules = options.rules ?? defaultWorkflowRules;
    this.blobs = options.blobs ?? blobStoreFor(':memory:');
    this.outcomes =
      options.outcomes === undefined
        ? undefined
        : new OutcomeSchedule(this, options.outcomes.seed, this.onBackgroundError);
  }

  now(): number {
    return this.clock() + this.clockOffsetMs;
  }

  /** The clock as ISO 8601; one formatting per millisecond, however many records it stamps. */
  nowIso(): string {
    const nowMs = this.now();
    if (nowMs !== this.isoMs) {
      this.isoMs = nowMs;
      this.iso = new Date(nowMs).toISOString();
    }
    return this.iso;
  }

  /**
   * Moves the sandbox's clock forward (never back: records keep their order in time), at most
   * `maxClockOffsetMs` in all, so every date stays one that ISO 8601 strings can hold.
   * Returns false, moving nothing, when the move would pass that.
   */
  advanceClock(byMs: number): boolean {
    const offsetMs = this.clockOffsetMs + Math.max(0, byMs);
    if (!(offsetMs <= maxClockOffsetMs)) return false;
    this.clockOffsetMs = offsetMs;
    return true;
  }

  /** A new id of the service's shape, in the order made (store/ids.ts). */
  newId(prefix: IdPrefix): string {
    return this.ids.next(prefix);
  }

  /**
   * Runs `work` as one unit: all of it or, if it throws, none of it. Group commit: the units of one
   * turn of the event loop share one SQLite transaction, committed at the end of the turn, each in
   * a savepoint of its own; a commit cost more than the rest of a new_claim. A reply waits for
   * `committed()`, so nothing is acknowledged before it is durable (the server does this for every
   * reply). The events a unit recorded reach the listeners (webhooks) only after the commit, so
   * nothing is announced that a rollback took back. Not nested.
   */
  transaction<Result>(work: () => Result): Result {
    const group = this.group ?? this.openGroup();
    let result: Result;
    try {
      result = this.runInTransaction(work);
    } catch (error) {
      this.pendingEvents = [];
      throw error;
    }
    group.events.push(...this.pendingEvents);
    this.pendingEvents = [];
    return result;
  }

  /**
   * `transaction` for a unit that only inserts rows and can take them back itself: no savepoint (a
   * savepoint copies each page the unit changes, so that a rollback can put it back; ~7 of a
   * new_claim's ~72 µs of CPU, measured under the bench's load). When `work` throws, `undo` deletes
   * what it inserted. Should `undo` fail, the whole group is rolled back instead of committed, and
   * every reply waiting for it sees the failure. Not nested.
   */
  insertOnly<Result>(work: () => Result, undo: () => void): Result {
    const group = this.group ?? this.openGroup();
    // SQLite rolled the group's transaction back (a full disk, an I/O error): a savepoint is
    // what keeps a unit whole outside one.
    if (!this.database.inTransaction) return this.transaction(work);
    let result: Result;
    try {
      result = work();
    } catch (error) {
      this.pendingEvents = [];
      try {
        undo();
      } catch (undoError) {
        group.failure ??= new Error('a unit of the group could not be taken back', { cause: undoError });
      }
      throw error;
    }
    group.events.push(...this.pendingEvents);
    this.pendingEvents = [];
    return result;
  }

  /** Settles once every write made so far is committed, rejects if that commit failed; undefined: none pending. Not async: a promise fewer a reply. */
  committed(): Promise<void> | undefined {
    return this.group?.committed;
  }

  private openGroup(): OpenGroup {
    this.database.exec('BEGIN IMMEDIATE');
    let settle: Pick<OpenGroup, 'resolve' | 'reject'> = { resolve: () => undefined, reject: () => undefined };
    const committed = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    // Awaited by the replies of this turn; a failure with none waiting must not go unhandled.
    committed.catch(() => undefined);
    const group: OpenGroup = { committed, events: [], ...settle };
    this.group = group;
    setImmediate(() => {
      this.commitGroup();
    });
    return group;
  }

  private commitGroup(): void {
    const group = this.group;
    if (group === undefined) return;
    this.group = undefined;
    try {
      if (group.failure !== undefined) throw group.failure;
      this.database.exec('COMMIT');
    } catch (error) {
      if (this.database.inTransaction) this.database.exec('ROLLBACK');
      this.onBackgroundError(error);
      group.reject(error);
      return;
    }
    group.resolve();
    for (const event of group.events) this.publish(event);
    try {
      this.afterCommit();
    } catch (error) {
      this.onBackgroundError(error);
    }
  }

  /**
   * Records an event (its types: docs/sandbox.md, "Events"), `created` now unless the change it
   * announces carries its own time. Call inside a transaction.
   */
  recordEvent(environment: Environment, type: string, caseId: string, created = this.nowIso()): number {
    const event = { environment, event_id: this.newId('event'), type, created, data: { case_id: caseId } };
    const seq = insertEvent(this.database, { environment, event_id: event.event_id, type, case_id: caseId, created });
    this.pendingEvents.push(event);
    return seq;
  }

  /** Hears every committed event, in order. A failing listener is reported, never thrown. */
  onEvent(listener: EventListener): void {
    this.eventListeners.push(listener);
  }

  private publish(event: SandboxEvent): void {
    for (const listener of this.eventListeners) {
      try {
        listener(event);
      } catch (error) {
        this.onBackgroundError(error);
      }
    }
  }

  /**
   * Runs `work` later, unless the sandbox closes first. A failure (a busy or full disk) is
   * reported, never thrown: the state it would have changed stays as committed, and an
   * interrupted evaluation is resumed at the next start.
   */
  later(delayMs: number, work: () => void): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      try {
        work();
      } catch (error) {
        this.onBackgroundError(error);
      }
    }, delayMs);
    this.timers.add(timer);
  }

  close(): void {
    this.commitGroup();
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
