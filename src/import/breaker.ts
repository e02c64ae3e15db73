/**
 * Stops a run that can only burn rows (docs/rate-limits.md, "The breaker"): the service is taken
 * to be failing when, among the claims that ended in the last minute, at least `threshold` failed
 * on the service's side (each already retried by the client) and they are at least half. A share
 * over time, not a count in a row: sporadic failures among many successes never stop a night,
 * and a service that fails most claims stops it even with a success now and then. The run then
 * stops pulling claims, records what it has, and exits 3, resumable.
 */

export interface BreakerOptions {
  /** The fewest failed claims in the window that open it. */
  threshold: number;
  /** The share of failed claims in the window that opens it; default 0.5. */
  share?: number;
  /** How far back the window goes; default a minute. */
  windowMs?: number;
  now?: () => number;
}

export class CircuitBreaker {
  readonly threshold: number;
  private readonly share: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  /** The claims that ended in the window, oldest first, from `head` on. */
  private readonly ended: { atMs: number; failed: boolean }[] = [];
  private head = 0;
  private failures = 0;
  private reason: string | undefined;

  constructor(options: BreakerOptions | number) {
    const settings = typeof options === 'number' ? { threshold: options } : options;
    this.threshold = settings.threshold;
    this.share = settings.share ?? 0.5;
    this.windowMs = settings.windowMs ?? 60_000;
    this.now = settings.now ?? Date.now;
  }

  /** Claims failed on the service's side in the last minute: the progress line shows it. */
  get recentFailures(): number {
    this.forgetOld(this.now());
    return this.failures;
  }

  /** Claims that ended in the last minute, failed or not. */
  get recentClaims(): number {
    this.forgetOld(this.now());
    return this.ended.length - this.head;
  }

  succeeded(): void {
    this.record(false);
  }

  failed(description: string): void {
    this.record(true);
    const claims = this.ended.length - this.head;
    if (this.reason === undefined && this.failures >= this.threshold && this.failures >= this.share * claims) {
      this.reason = `${this.failures} of the ${claims} claims that ended in the last ${Math.round(this.windowMs / 1000)} s failed; the last: ${description}`;
    }
  }

  /** Opens at once, whatever the count (a refused key will not get better). */
  trip(reason: string): void {
    this.reason ??= reason;
  }

  get open(): boolean {
    return this.reason !== undefined;
  }

  get why(): string | undefined {
    return this.reason;
  }

  private record(failed: boolean): void {
    const nowMs = this.now();
    this.forgetOld(nowMs);
    this.ended.push({ atMs: nowMs, failed });
    if (failed) this.failures++;
  }

  private forgetOld(nowMs: number): void {
    while (this.head < this.ended.length && (this.ended[this.head]?.atMs ?? nowMs) <= nowMs - this.windowMs) {
      if (this.ended[this.head]?.failed === true) this.failures--;
      this.head++;
    }
    // Compact now and then, so the array does not grow with the night.
    if (this.head > 1024 && this.head * 2 > this.ended.length) {
      this.ended.splice(0, this.head);
      this.head = 0;
    }
  }
}
