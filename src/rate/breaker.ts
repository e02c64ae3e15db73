import { AuthenticationError } from '../api/errors.js';
import { ConnectionSetupError } from '../api/network/setup-error.js';

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

/** Claims that ended in one second of the window. */
interface SecondCounts {
  second: number;
  claims: number;
  failures: number;
}

export class CircuitBreaker {
  readonly threshold: number;
  private readonly share: number;
  private readonly windowSeconds: number;
  private readonly now: () => number;
  /**
   * One slot per second of the window, reused round: memory stays the same whatever the pace (a
   * dry run ends claims by the hundred thousand a minute).
   */
  private readonly seconds: SecondCounts[];
  private reason: string | undefined;

  constructor(options: BreakerOptions | number) {
    const settings = typeof options === 'number' ? { threshold: options } : options;
    this.threshold = settings.threshold;
    this.share = settings.share ?? 0.5;
    this.windowSeconds = Math.max(1, Math.round((settings.windowMs ?? 60_000) / 1000));
    this.now = settings.now ?? Date.now;
    this.seconds = Array.from({ length: this.windowSeconds }, () => ({ second: -1, claims: 0, failures: 0 }));
  }

  /** Claims failed on the service's side in the last minute: the progress line shows it. */
  get recentFailures(): number {
    return this.totals().failures;
  }

  /** Claims that ended in the last minute, failed or not. */
  get recentClaims(): number {
    return this.totals().claims;
  }

  succeeded(): void {
    this.record(false);
  }

  failed(description: string): void {
    this.record(true);
    const { claims, failures } = this.totals();
    if (this.reason === undefined && failures >= this.threshold && failures >= this.share * claims) {
      this.reason = `${failures} of the ${claims} claims that ended in the last ${this.windowSeconds} s failed; the last: ${description}`;
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
    const second = Math.floor(this.now() / 1000);
    const slot = this.seconds[second % this.windowSeconds];
    if (slot === undefined) return;
    if (slot.second !== second) {
      slot.second = second;
      slot.claims = 0;
      slot.failures = 0;
    }
    slot.claims++;
    if (failed) slot.failures++;
  }

  private totals(): { claims: number; failures: number } {
    const oldest = Math.floor(this.now() / 1000) - this.windowSeconds;
    let claims = 0;
    let failures = 0;
    for (const slot of this.seconds) {
      if (slot.second <= oldest) continue;
      claims += slot.claims;
      failures += slot.failures;
    }
    return { claims, failures };
  }
}

/**
 * A request that failed after its retries, judged for a job that reads or writes many: a refused
 * key or a network set up wrongly fails every request alike, so it opens the breaker at once and
 * is the job's fatal error (`onFatal`); any other failure counts towards the breaker.
 */
export function judgeFailure(breaker: CircuitBreaker, error: unknown, onFatal: (error: Error) => void): void {
  if (isFatalFailure(error)) {
    onFatal(error);
    breaker.trip(error.message);
  } else breaker.failed(error instanceof Error ? error.message : String(error));
}

export function isFatalFailure(error: unknown): error is AuthenticationError | ConnectionSetupError {
  return error instanceof AuthenticationError || error instanceof ConnectionSetupError;
}
