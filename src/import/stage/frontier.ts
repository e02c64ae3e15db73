import type { ClaimExtents } from './claim-extents.js';

/**
 * How far staging has come, for the claims sent meanwhile (docs/import.md, "What happens, in
 * order"): a claim is ready once every record up to its last is staged and checked against the
 * rows before it (duplicates, case ids taken), and every claim is once staging has ended. Without
 * extents (a results file fed back) no claim is ready before the end.
 */
export class StagingFrontier {
  /** The last record index staged and checked; -1 before the first check. */
  private checkedThrough = -1;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;
  private changes = this.nextChange();
  private readonly stagedAtMs: Promise<number>;
  private markStaged: ((atMs: number) => void) | undefined;

  constructor(private readonly extents: ClaimExtents | undefined) {
    this.stagedAtMs = new Promise((resolve) => {
      this.markStaged = resolve;
    });
  }

  /** Every record up to `index` is staged and checked. */
  checked(index: number): void {
    this.checkedThrough = Math.max(this.checkedThrough, index);
    this.changed();
  }

  /** Staging has ended: every claim is ready. */
  end(): void {
    this.ended = true;
    this.markStaged?.(performance.now());
    this.changed();
  }

  /** Staging failed: nothing more becomes ready, and the claims not yet started stay for the next run. */
  fail(error: unknown): void {
    this.failure = { error };
    this.changed();
  }

  get staged(): boolean {
    return this.ended;
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** When staging ended (performance.now()), for what is done once it has: never, if it fails. */
  get whenStaged(): Promise<number> {
    return this.stagedAtMs;
  }

  isReady(claimKey: string): boolean {
    if (this.ended) return true;
    return this.extents !== undefined && this.extents.lastRecordOf(claimKey) <= this.checkedThrough;
  }

  /** Resolves at the next check, the end, or a failure. */
  async change(): Promise<void> {
    return this.changes;
  }

  private changed(): void {
    const wake = this.wake;
    this.changes = this.nextChange();
    wake?.();
  }

  private async nextChange(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }
}
