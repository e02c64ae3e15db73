import { TokenBucket } from '../token-bucket.js';
import { parseRetryAfterMs } from '../retry-policy.js';

/**
 * The job's pace (issue 13, "Rate etiquette"): every attempt of every request passes here before
 * it is sent and reports here after, one Pacing per client, so creates, uploads, filings,
 * retrieves and retries all queue at the same place.
 * - A `Retry-After` on a 429 or 503 pauses the whole job, not only the request that got it:
 *   the service said when it wants to hear from us again, and that holds for every request.
 * - `--max-rps`: a token bucket that holds one token, so the job never sends more than
 *   `maxRps` requests in any second (plus the one it had in hand). A burst of one keeps the
 *   pace even: a service counting per second, per 100 ms or with its own bucket sees the same.
 * - Listeners hear of every attempt: the import's adaptive concurrency cuts on 429 and 503.
 */

export interface PacingOptions {
  /** Requests per second for the whole job; undefined: as fast as the concurrency goes. */
  maxRps: number | undefined;
  /** The longest Retry-After honoured (the retry policy's cap, so a request and the job agree). */
  retryAfterCapMs: number;
  now: () => number;
  sleep: (delayMs: number) => Promise<void>;
}

/** One attempt as the pacing saw it. `throttled`: the service answered 429 or 503, "not now". */
export interface AttemptReport {
  method: string;
  path: string;
  /** Undefined when no answer came (a network error). */
  status: number | undefined;
  throttled: boolean;
  /** The Retry-After it carried, in ms (capped), when it carried one. */
  retryAfterMs: number | undefined;
}

export type AttemptListener = (report: AttemptReport) => void;

/** What the pacing has seen and done so far, for the summary and the logs. */
export interface PacingStats {
  maxRps: number | undefined;
  /** Attempts sent, answered or not, retries included: what the 429s are a share of. */
  requests: number;
  answered429: number;
  answered503: number;
  /** Retry-After answers that started or lengthened the job's pause. */
  pauses: number;
  /** Time the job was paused in all (overlapping pauses counted once). */
  pausedMs: number;
  /** Attempts that waited for a token of --max-rps. */
  waitedForToken: number;
  /** From the first attempt sent to the last one answered (or failed): requests / this is the pace kept. */
  sendingMs: number;
}

export class Pacing {
  private pausedUntilMs = 0;
  private readonly bucket: TokenBucket | undefined;
  private readonly listeners = new Set<AttemptListener>();
  private readonly counts = { requests: 0, answered429: 0, answered503: 0, pauses: 0, pausedMs: 0, waitedForToken: 0 };
  private firstSentMs: number | undefined;
  private lastAnsweredMs: number | undefined;

  constructor(private readonly options: PacingOptions) {
    this.bucket = options.maxRps === undefined ? undefined : new TokenBucket(options.maxRps, 1, options.now());
  }

  /**
   * Waits for whatever holds the next attempt back: its own retry delay (a retry always sleeps,
   * even 0 ms, as it did before the pacing), the job's pause, then a token. One sleep covers the
   * first two; it is repeated only when another answer lengthened the pause meanwhile.
   */
  async beforeAttempt(retryDelayMs: number | undefined): Promise<void> {
    await this.waitForTurn(retryDelayMs);
    this.firstSentMs ??= this.options.now();
  }

  private async waitForTurn(retryDelayMs: number | undefined): Promise<void> {
    const { now, sleep } = this.options;
    let untilMs = this.pausedUntilMs;
    const waitMs = Math.max(retryDelayMs ?? 0, untilMs - now());
    if (retryDelayMs !== undefined || waitMs > 0) {
      await sleep(waitMs);
      while (this.pausedUntilMs > untilMs) {
        untilMs = this.pausedUntilMs;
        await sleep(Math.max(0, untilMs - now()));
      }
    }
    if (this.bucket === undefined) return;
    const tokenWaitMs = this.bucket.reserve(now());
    if (tokenWaitMs > 0) {
      this.counts.waitedForToken++;
      await sleep(tokenWaitMs);
      // A pause that began while this attempt waited for its token holds it too (the token stays spent).
      const pausedForMs = this.pausedUntilMs - now();
      if (pausedForMs > 0) await sleep(pausedForMs);
    }
  }

  /** After an attempt: counts a throttled answer, pauses the job for its Retry-After, tells the listeners. */
  afterAttempt(method: string, path: string, status: number | undefined, retryAfter: string | undefined): void {
    this.counts.requests++;
    this.lastAnsweredMs = this.options.now();
    const throttled = status === 429 || status === 503;
    let retryAfterMs: number | undefined;
    if (throttled) {
      if (status === 429) this.counts.answered429++;
      else this.counts.answered503++;
      const hintMs = retryAfter === undefined ? undefined : parseRetryAfterMs(retryAfter, this.options.now());
      retryAfterMs = hintMs === undefined ? undefined : Math.min(hintMs, this.options.retryAfterCapMs);
      if (retryAfterMs !== undefined) this.pauseFor(retryAfterMs);
    }
    if (this.listeners.size === 0) return;
    const report: AttemptReport = { method, path, status, throttled, retryAfterMs };
    for (const listener of this.listeners) listener(report);
  }

  /** Calls `listener` after every attempt; returns how to stop. */
  onAttempt(listener: AttemptListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  stats(): PacingStats {
    const sendingMs = this.firstSentMs === undefined || this.lastAnsweredMs === undefined ? 0 : Math.max(0, this.lastAnsweredMs - this.firstSentMs);
    return { maxRps: this.options.maxRps, ...this.counts, sendingMs };
  }

  private pauseFor(delayMs: number): void {
    if (!(delayMs > 0)) return;
    const nowMs = this.options.now();
    const untilMs = nowMs + delayMs;
    if (untilMs <= this.pausedUntilMs) return;
    this.counts.pausedMs += untilMs - Math.max(nowMs, this.pausedUntilMs);
    this.pausedUntilMs = untilMs;
    this.counts.pauses++;
  }
}
