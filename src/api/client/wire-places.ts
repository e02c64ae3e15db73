/**
 * How many requests may be on the wire at once (docs/rate-limits.md, "Claims in flight, requests
 * on the wire"): the senders' adaptive limit, applied to requests rather than to claims. A claim
 * whose retry waits out a Retry-After holds no place, so another claim's request goes meanwhile;
 * when the wait is over, the retry takes the next free place before any first attempt, so a
 * service at its capacity serves the requests it refused first instead of starving them.
 */
export class WirePlaces {
  private limit = Number.POSITIVE_INFINITY;
  private taken = 0;
  private readonly retries: (() => void)[] = [];
  private readonly firsts: (() => void)[] = [];

  /** Requests on the wire now. */
  get onWire(): number {
    return this.taken;
  }

  /** The most on the wire at once from now on; `Infinity`: no limit (no sender follows the answers). */
  setLimit(limit: number): void {
    this.limit = limit;
    this.admit();
  }

  /**
   * Takes a place: undefined when one was free, else a promise that resolves when one is given.
   * `retry`: ahead of every first attempt waiting. (No promise on the common path: one request a
   * claim at full speed should not pay for a wait it never has.)
   */
  take(retry: boolean): Promise<void> | undefined {
    if (this.taken < this.limit && this.retries.length === 0 && (retry || this.firsts.length === 0)) {
      this.taken++;
      return undefined;
    }
    return new Promise<void>((resolve) => (retry ? this.retries : this.firsts).push(resolve));
  }

  /** The request's answer is in (or it failed): its place goes to the next waiting. */
  release(): void {
    this.taken = Math.max(0, this.taken - 1);
    this.admit();
  }

  private admit(): void {
    while (this.taken < this.limit) {
      const next = this.retries.shift() ?? this.firsts.shift();
      if (next === undefined) return;
      this.taken++;
      next();
    }
  }
}
