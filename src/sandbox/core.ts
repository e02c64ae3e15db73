import { randomBytes } from 'node:crypto';
import type { SandboxDatabase } from './store/database.js';
import { insertEvent, type Environment } from './store/records.js';

export type IdPrefix = 'claim' | 'case' | 'file' | 'event';

export interface SandboxCoreOptions {
  database: SandboxDatabase;
  /** The sandbox's clock: injectable, and movable later through the control prefix. */
  now?: () => number;
  /** How long run_workflow "evaluates" before it files: the window in which a second call is refused. */
  workflowDelayMs?: number;
  /** Where a failure of delayed work goes; it must never end the process. */
  onBackgroundError?: (error: unknown) => void;
}

/**
 * What every handler shares: storage, the clock, ids, events, and the run_workflow timers.
 * Handlers change state only inside `transaction`, so a response is written after its commit.
 */
export class SandboxCore {
  readonly database: SandboxDatabase;
  readonly workflowDelayMs: number;
  private readonly clock: () => number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly onBackgroundError: (error: unknown) => void;
  private closed = false;

  constructor(options: SandboxCoreOptions) {
    this.database = options.database;
    this.clock = options.now ?? Date.now;
    this.workflowDelayMs = options.workflowDelayMs ?? 200;
    this.onBackgroundError = options.onBackgroundError ?? (() => undefined);
  }

  now(): number {
    return this.clock();
  }

  nowIso(): string {
    return new Date(this.clock()).toISOString();
  }

  /** `claim_…`, `case_…`: 24 hex digits of randomness, as generated ids look in the document. */
  newId(prefix: IdPrefix): string {
    return `${prefix}_${randomBytes(12).toString('hex')}`;
  }

  transaction<Result>(work: () => Result): Result {
    return this.database.transaction(work)();
  }

  /** Records an event (service-notes.md, "Webhooks": event types). Call inside a transaction. */
  recordEvent(environment: Environment, type: string, caseId: string): void {
    insertEvent(this.database, { environment, event_id: this.newId('event'), type, case_id: caseId, created: this.nowIso() });
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
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
