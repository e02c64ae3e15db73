import type { Statement } from 'better-sqlite3';
import type { JournalDatabase } from '../../journal/open.js';

/**
 * Group commit for the sending phase (docs/decisions/0004-group-commit-while-sending.md). A commit costs about 60 µs here, and each claim made two (its
 * step before the create, its outcome after): a fifth of the import's CPU per claim at
 * concurrency 32. Instead, the claims whose turn comes in the same turn of the event loop write
 * into one open transaction, committed once at the end of that turn (setImmediate).
 *
 * What must be durable before a remote call (a claim's `submitting` step) is awaited: the request
 * leaves only after the commit. What is written after a call (its outcome) is not: a crash before
 * the commit leaves the claim at `submitting`, which the next run settles with a retrieve, exactly
 * as a crash between the response and its record always did. Any other journal write made while a
 * group is open joins it.
 */
interface OpenGroup {
  readonly committed: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export class GroupCommit {
  private open: OpenGroup | undefined;
  /** A commit that failed (a full disk) with no one waiting for it: the next write throws it. */
  private failure: Error | undefined;

  constructor(
    private readonly database: JournalDatabase,
    /** The journal's transaction function: nested in the group, a failing `work` undoes only itself. */
    private readonly inTransaction: (work: () => unknown) => unknown,
    /** `BEGIN IMMEDIATE` and `COMMIT`, prepared once: a group is opened and committed about once per claim. */
    private readonly statements: { readonly begin: Statement; readonly commit: Statement },
  ) {}

  /** Writes `work` in the open group (opening one); it is durable once the promise resolves. */
  async durably(work: () => void): Promise<void> {
    await this.write(work);
  }

  /** Writes `work` in the open group (opening one), durable at the end of this turn of the event loop. */
  soon(work: () => void): void {
    this.write(work)?.catch((error: unknown) => {
      this.failure ??= error as Error;
    });
  }

  /** Commits the open group now: before the journal is read at length (results) or closed. */
  flush(): void {
    const open = this.open;
    if (open === undefined) return;
    this.open = undefined;
    try {
      this.statements.commit.run();
      open.resolve();
    } catch (error) {
      if (this.database.inTransaction) this.database.exec('ROLLBACK');
      open.reject(error);
    }
  }

  /** Runs `work` now, in the group; what it wrote is committed when the returned promise settles. */
  private write(work: () => void): Promise<void> | undefined {
    if (this.failure !== undefined) throw this.failure;
    if (this.open === undefined && this.database.inTransaction) {
      // Inside a caller's own transaction: durable when it commits, before anything can be sent.
      this.inTransaction(work);
      return undefined;
    }
    const group = this.open ?? this.openGroup();
    this.inTransaction(work);
    return group.committed;
  }

  private openGroup(): OpenGroup {
    this.statements.begin.run();
    let settle: Pick<OpenGroup, 'resolve' | 'reject'> = { resolve: () => undefined, reject: () => undefined };
    const committed = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    this.open = { committed, ...settle };
    setImmediate(() => {
      this.flush();
    });
    return this.open;
  }
}
