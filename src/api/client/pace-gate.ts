import { TokenBucket } from '../token-bucket.js';
import { AdaptiveRate, type AdaptiveRateStats } from './adaptive-rate.js';
import type { AnswerKind } from './answer-kind.js';

/**
 * The turn of each request (docs/rate-limits.md): one token bucket holding one token, so the pace
 * is even, at the lower of `--max-rps` (a person's ceiling) and the service's rate as the 429s
 * tell it (adaptive-rate.ts). Without either, no wait at all.
 */
export interface PaceGateStats {
  /** Attempts that waited for their turn while `--max-rps` set the pace. */
  waitedForToken: number;
  /** Attempts that waited for their turn while the service's rate set it. */
  waitedForRate: number;
  rate: AdaptiveRateStats;
}

export class PaceGate {
  private bucket: TokenBucket | undefined;
  private readonly rate = new AdaptiveRate();
  private waitedForToken = 0;
  private waitedForRate = 0;

  constructor(
    private readonly maxRps: number | undefined,
    startMs: number,
  ) {
    this.bucket = maxRps === undefined ? undefined : new TokenBucket(maxRps, 1, startMs);
  }

  /** Requests a second allowed now; undefined when nothing paces the job. */
  perSecond(nowMs: number): number | undefined {
    const service = this.rate.perSecond(nowMs);
    if (service === undefined) return this.maxRps;
    return this.maxRps === undefined ? service : Math.min(this.maxRps, service);
  }

  /** Books the next turn; how many ms to wait for it (0: now). */
  reserve(nowMs: number): number {
    this.rate.sent(nowMs);
    const perSecond = this.perSecond(nowMs);
    if (perSecond === undefined) return 0;
    this.bucket ??= new TokenBucket(perSecond, 1, nowMs);
    this.bucket.setRate(perSecond, nowMs);
    const waitMs = this.bucket.reserve(nowMs);
    if (waitMs > 0) {
      if (perSecond === this.maxRps) this.waitedForToken++;
      else {
        this.waitedForRate++;
        this.rate.waited(nowMs);
      }
    }
    return waitMs;
  }

  /** An answer, for the service's rate: a 429 may cut it, any other answer is one the service admitted. */
  answered(kind: AnswerKind, sentAtMs: number, nowMs: number): boolean {
    if (kind === 'rate-limited') return this.rate.throttled(sentAtMs, nowMs);
    if (kind !== 'failed') this.rate.admitted(nowMs);
    return false;
  }

  stats(): PaceGateStats {
    return { waitedForToken: this.waitedForToken, waitedForRate: this.waitedForRate, rate: this.rate.stats() };
  }
}
