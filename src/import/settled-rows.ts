/**
 * How far this run's rows are settled, for the results written while claims are still sent
 * (docs/import.md, "The results CSV"). A row is settled once nothing this run does can change its
 * line. The claims are taken in the order of their first row, so every row up to the place the
 * taking has reached is settled unless its claim is still in flight: its claim was taken and is
 * done, was final before it was reached, or (a row of no claim) was refused at staging. Asked only
 * once staging has ended: its last check can still move rows from one claim to another.
 */
export class SettledRows {
  /** The first row of the last claim taken or passed over; -1 before the first. */
  private passedThrough = -1;
  private everyClaimPassed = false;
  private over = false;
  private failure: { error: unknown } | undefined;
  /** The claims in flight by key, each with its first row, in the order they were taken: by first row. */
  private readonly inFlight = new Map<string, number>();
  private waiters: { readonly through: number; readonly wake: () => void }[] = [];

  /** A claim is taken: its rows are not settled until it is done. */
  taken(claimKey: string, firstIdx: number): void {
    this.inFlight.set(claimKey, firstIdx);
    this.passed(firstIdx);
  }

  /** A claim is passed over (taken before, or final already), or one taken is done. */
  passed(firstIdx: number): void {
    this.passedThrough = Math.max(this.passedThrough, firstIdx);
    this.changed();
  }

  done(claimKey: string): void {
    this.inFlight.delete(claimKey);
    this.changed();
  }

  /** Every claim still to send has been taken: only the claims in flight hold rows back. */
  passedAll(): void {
    this.everyClaimPassed = true;
    this.changed();
  }

  /** Sending has ended, however it ended: every row is as the results will say it. */
  end(): void {
    this.over = true;
    this.changed();
  }

  /** The run stops with a failure: whoever waits is told, and writes nothing more. */
  fail(error: unknown): void {
    this.failure = { error };
    this.changed();
  }

  get ended(): boolean {
    return this.over;
  }

  /** Every row at or before this place in the input is settled. */
  get settledThrough(): number {
    if (this.over) return Number.MAX_SAFE_INTEGER;
    const oldest = this.inFlight.values().next();
    const beforeInFlight = oldest.done === true ? Number.MAX_SAFE_INTEGER : oldest.value - 1;
    return Math.min(this.everyClaimPassed ? Number.MAX_SAFE_INTEGER : this.passedThrough, beforeInFlight);
  }

  isInFlight(claimKey: string): boolean {
    return this.inFlight.has(claimKey);
  }

  /** Resolves once every row through `idx` is settled or sending has ended; rejects if the run fails. */
  async until(idx: number): Promise<void> {
    this.throwIfFailed();
    if (this.over || this.settledThrough >= idx) return;
    await new Promise<void>((resolve) => {
      this.waiters.push({ through: idx, wake: resolve });
    });
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure.error;
  }

  private changed(): void {
    if (this.waiters.length === 0) return;
    const through = this.settledThrough;
    const all = this.over || this.failure !== undefined;
    const woken = this.waiters.filter((waiter) => all || waiter.through <= through);
    if (woken.length === 0) return;
    this.waiters = this.waiters.filter((waiter) => !woken.includes(waiter));
    for (const waiter of woken) waiter.wake();
  }
}
