/**
 * A token bucket, pure: the caller passes the time, so tests are tables, not sleeps.
 * One shape serves both sides of the wire:
 * - the client's `--max-rps` (transport): `reserve` books the next token and says how long to
 *   wait for it, so every request of the job, whoever sends it, queues on one pace, first come
 *   first served, without polling;
 * - the sandbox's `--rate-limit` (per API key): `tryTake` answers at once, yes or "not for
 *   another N ms", and takes nothing when it says no.
 *
 * Why not a library: limiter's TokenBucket and p-throttle read the wall clock themselves and do
 * the waiting with their own timers (no injected clock to test against, no way for the
 * transport's Retry-After pause to share the wait); p-throttle is a sliding window, not a
 * bucket; bottleneck has had no release since 2019. This is twenty lines of arithmetic.
 */
export class TokenBucket {
  private tokens: number;
  private lastMs: number;
  private rate: number;

  /**
   * @param perSecond tokens added per second (any positive number: 0.5 is one every 2 s).
   * @param capacity the most tokens it holds: the burst allowed after a quiet spell. It starts full.
   */
  constructor(
    perSecond: number,
    readonly capacity: number,
    startMs: number,
  ) {
    this.rate = checkedRate(perSecond);
    if (!(capacity >= 1) || !Number.isFinite(capacity))
      throw new RangeError(`token bucket capacity: expected a number from 1 up, got ${String(capacity)}`);
    this.tokens = capacity;
    this.lastMs = startMs;
  }

  /** Tokens added per second now. */
  get perSecond(): number {
    return this.rate;
  }

  /** From `nowMs` on, `perSecond` tokens a second (the client's pace following the service's rate); what was added until then stays. */
  setRate(perSecond: number, nowMs: number): void {
    const rate = checkedRate(perSecond);
    if (rate === this.rate) return;
    this.refill(nowMs);
    this.rate = rate;
  }

  /** Takes a token if one is there (0); otherwise takes none and says in how many ms one will be. */
  tryTake(nowMs: number): number {
    this.refill(nowMs);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 1000) / this.rate);
  }

  /**
   * Books the next token, even one not there yet, and returns how many ms to wait before using
   * it (0: now). Bookings go into debt, so each caller's wait is one token's time after the
   * previous caller's: n callers at once are spread over n / perSecond seconds.
   */
  reserve(nowMs: number): number {
    this.refill(nowMs);
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens * 1000) / this.rate);
  }

  /** Tokens there now (negative: booked ahead); for tests and logs. */
  available(nowMs: number): number {
    this.refill(nowMs);
    return this.tokens;
  }

  private refill(nowMs: number): void {
    // A clock moved back (the sandbox's control prefix) adds nothing, and counts from there.
    const elapsedMs = Math.max(0, nowMs - this.lastMs);
    this.tokens = Math.min(this.capacity, this.tokens + (elapsedMs * this.rate) / 1000);
    this.lastMs = nowMs;
  }
}

function checkedRate(perSecond: number): number {
  if (!(perSecond > 0) || !Number.isFinite(perSecond))
    throw new RangeError(`token bucket rate: expected a positive number, got ${String(perSecond)}`);
  return perSecond;
}
