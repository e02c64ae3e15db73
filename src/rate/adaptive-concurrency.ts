/**
 * How many claims may be in flight, adapted to the service's answers (issue 13): additive
 * increase, multiplicative decrease (AIMD, as TCP does with its window). Pure: the caller says
 * what happened and when; the pipeline applies `limit`.
 *
 * - Every 429 or 503 answer cuts the limit by `decreaseFactor` (never below `min`). Each one
 *   counts, not one per round: a rate limit that runs dry answers every request in flight with
 *   429 at once, and that many refusals say the job is far over what the service allows.
 * - After `growAfterSuccesses` answers in a row that are not throttled, the limit grows by one,
 *   never above `max` (`--concurrency`). A throttled answer starts the run again.
 *
 * Why growth is slow (default: twice `max` answers per step): against a rate limit, requests
 * answer in milliseconds whatever their number, so concurrency does not set the rate; what it
 * sets is how many requests are already on their way when the service's allowance runs out, and
 * all of those are refused. Growing by one per window of answers (TCP's pace) would be back at
 * ~10 in flight within one second of a 50/s allowance, and every second would end in ~10
 * refusals; growing by one per two full windows keeps the refusals near one a second
 * (issue 13's proof: under 5% of requests at --concurrency 32 against 50/s).
 */

export interface AdaptiveConcurrencyOptions {
  /** The ceiling, `--concurrency`; the limit starts there. */
  max: number;
  /** The floor; default 1. */
  min?: number;
  /** Multiplier on a throttled answer, in (0, 1); default 0.5. */
  decreaseFactor?: number;
  /** Unthrottled answers in a row before one more in flight; default 2 x max. */
  growAfterSuccesses?: number;
}

export interface ConcurrencyStats {
  max: number;
  /** The limit now. */
  current: number;
  lowest: number;
  /** The limit in force for the longest time so far (ties: the lower); `max` for a run never throttled. */
  settled: number;
  /** Answers 429 or 503. */
  throttled: number;
  cuts: number;
  increases: number;
}

export class AdaptiveConcurrency {
  readonly max: number;
  private readonly min: number;
  private readonly decreaseFactor: number;
  private readonly growAfterSuccesses: number;
  private current: number;
  private lowest: number;
  private successRun = 0;
  private throttledCount = 0;
  private cuts = 0;
  private increases = 0;
  /** Milliseconds spent at each limit, up to `sinceMs`. */
  private readonly msAtLimit = new Map<number, number>();
  private sinceMs: number;

  constructor(options: AdaptiveConcurrencyOptions, startMs: number) {
    this.max = wholeNumber('max', options.max, 1);
    this.min = wholeNumber('min', options.min ?? 1, 1);
    if (this.min > this.max) throw new RangeError(`adaptive concurrency min: expected at most max (${this.max}), got ${this.min}`);
    this.decreaseFactor = options.decreaseFactor ?? 0.5;
    if (!(this.decreaseFactor > 0 && this.decreaseFactor < 1)) {
      throw new RangeError(`adaptive concurrency decreaseFactor: expected a number between 0 and 1, got ${String(options.decreaseFactor)}`);
    }
    this.growAfterSuccesses = wholeNumber('growAfterSuccesses', options.growAfterSuccesses ?? 2 * this.max, 1);
    this.current = this.max;
    this.lowest = this.max;
    this.sinceMs = startMs;
  }

  get limit(): number {
    return this.current;
  }

  /** A 429 or 503 answer. Returns true when the limit went down. */
  throttled(nowMs: number): boolean {
    this.throttledCount++;
    this.successRun = 0;
    const next = Math.max(this.min, Math.floor(this.current * this.decreaseFactor));
    if (next === this.current) return false;
    this.cuts++;
    this.moveTo(next, nowMs);
    this.lowest = Math.min(this.lowest, next);
    return true;
  }

  /** An answer that was not throttled. Returns true when the limit went up. */
  succeeded(nowMs: number): boolean {
    this.successRun++;
    if (this.successRun < this.growAfterSuccesses || this.current >= this.max) return false;
    this.successRun = 0;
    this.increases++;
    this.moveTo(this.current + 1, nowMs);
    return true;
  }

  stats(nowMs: number): ConcurrencyStats {
    const msAtLimit = new Map(this.msAtLimit);
    msAtLimit.set(this.current, (msAtLimit.get(this.current) ?? 0) + Math.max(0, nowMs - this.sinceMs));
    let settled = this.current;
    let longestMs = -1;
    for (const [limit, ms] of msAtLimit) {
      if (ms > longestMs || (ms === longestMs && limit < settled)) {
        settled = limit;
        longestMs = ms;
      }
    }
    return { max: this.max, current: this.current, lowest: this.lowest, settled, throttled: this.throttledCount, cuts: this.cuts, increases: this.increases };
  }

  private moveTo(limit: number, nowMs: number): void {
    this.msAtLimit.set(this.current, (this.msAtLimit.get(this.current) ?? 0) + Math.max(0, nowMs - this.sinceMs));
    this.sinceMs = Math.max(this.sinceMs, nowMs);
    this.current = limit;
  }
}

function wholeNumber(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) throw new RangeError(`adaptive concurrency ${name}: expected a whole number from ${min} up, got ${String(value)}`);
  return value;
}
