import { parseRetryAfterMs } from '../retry-policy.js';
import { answerKind, countsAsRefusal, type AnswerKind } from './answer-kind.js';
import { PaceGate } from './pace-gate.js';
import { defaultRetryBudget, RetryBudget } from './retry-budget.js';
import { RouteCounts } from './route-counts.js';
import type { AttemptListener, AttemptReport, PacingStats, ParkedListener } from './pacing-stats.js';

export type { AttemptListener, AttemptReport, PacingStats, ParkedListener } from './pacing-stats.js';
import { WirePlaces } from './wire-places.js';

/**
 * The job's pace (docs/rate-limits.md): every attempt of every request passes here before it is
 * sent and reports here after, one Pacing per client, so creates, uploads, filings, retrieves
 * and retries all queue at the same place.
 * - A 429 sets the pace to the service's rate (pace-gate.ts, adaptive-rate.ts), and its retry
 *   waits out its `Retry-After` parked. The whole job pauses for a 429's `Retry-After` only when
 *   it is longer than a second: HTTP counts it in whole seconds, so 1 s is what a rate limiter
 *   says of its next token at any rate over one a second; longer is an allowance spent for a while.
 * - A 503's `Retry-After` delays only the request that got it (its own retry waits for it), so
 *   one busy node or one locked case does not stop the night. The whole job pauses for it only
 *   when the service accepted nothing for a second and refused ten or more meanwhile: it is down.
 * - A retry waiting out a 429, a 503 or a failure waits parked: it holds no place on the wire, listeners
 *   hear of it, and the senders let another claim go meanwhile (wire-places.ts).
 * - Retries of refusals stay within the retry budget (retry-budget.ts).
 * - `--max-rps`: a ceiling on the same pace, a token bucket that holds one token, so the job never
 *   sends more than `maxRps` requests in any second (plus the one it had in hand). A burst of one
 *   keeps the pace even: a service counting per second, per 100 ms or with its own bucket sees the same.
 * - Listeners hear of every attempt and what kind of answer it had (answer-kind.ts): the
 *   senders' adaptive concurrency follows them.
 */

export interface PacingOptions {
  /** Requests per second for the whole job; undefined: as fast as the concurrency goes. */
  maxRps: number | undefined;
  /** The longest Retry-After honoured (the retry policy's cap, so a request and the job agree). */
  retryAfterCapMs: number;
  now: () => number;
  sleep: (delayMs: number) => Promise<void>;
}

/** The service looks down when it accepted nothing for this long and refused at least this many meanwhile. */
const downAfter = { ms: 1000, refusals: 10 } as const;
/** The job's pause when the service looks down and its refusals named no Retry-After. */
const downPauseMs = 1000;
/** A 429's Retry-After up to this holds only its own request: a rate limiter's next token, in HTTP's whole seconds. */
const rateTokenRetryAfterMs = 1000;

export class Pacing {
  private pausedUntilMs = 0;
  private readonly gate: PaceGate;
  private readonly listeners = new Set<AttemptListener>();
  private readonly parkedListeners = new Set<ParkedListener>();
  private readonly places = new WirePlaces();
  private readonly budget: RetryBudget;
  /** Refusals since the last answer that was not one, and when that answer came (the first send before any). */
  private refusedSinceAccepted = 0;
  private lastAcceptedMs: number | undefined;
  private parked = 0;
  private readonly counts = {
    requests: 0,
    answered429: 0,
    answered503: 0,
    caseUnavailable: 0,
    failed: 0,
    pauses: 0,
    downPauses: 0,
    pausedMs: 0,
  };
  private readonly routes = new RouteCounts();
  private firstSentMs: number | undefined;
  private lastAnsweredMs: number | undefined;

  constructor(private readonly options: PacingOptions) {
    this.gate = new PaceGate(options.maxRps, options.now());
    this.budget = new RetryBudget(defaultRetryBudget, options.now());
  }

  /** The most requests on the wire at once (the senders' adaptive limit); `Infinity`: none. */
  limitOnWire(limit: number): void {
    this.places.setLimit(limit);
  }

  /** Requests on the wire now (their answers not yet in). */
  get onWire(): number {
    return this.places.onWire;
  }

  /** The attempt's answer is in, or it failed: its place on the wire is free. */
  attemptEnded(): void {
    this.places.release();
  }

  /**
   * Waits for whatever holds the next attempt back: its own retry delay (a retry always sleeps,
   * even 0 ms, as it did before the pacing) and the retry budget, the job's pause, a place on the
   * wire, then its turn. `previous`: for a retry, the kind of answer the last attempt had; a retry
   * of a 429, a refusal or a case unavailable waits parked, without holding back others. Returns
   * when the attempt goes.
   */
  async beforeAttempt(retryDelayMs: number | undefined, previous?: AnswerKind): Promise<number> {
    const retry = retryDelayMs !== undefined;
    const refusal = previous !== undefined && countsAsRefusal(previous);
    const parked = previous !== undefined && previous !== 'accepted';
    const nowMs = this.options.now();
    if (!retry) this.budget.firstAttempt(nowMs);
    const delayMs = refusal ? Math.max(retryDelayMs ?? 0, this.budget.reserve(nowMs)) : retryDelayMs;
    if (delayMs !== undefined || this.pausedUntilMs > nowMs) {
      if (parked) this.park(1);
      try {
        await this.waitForPause(delayMs);
      } finally {
        if (parked) this.park(-1);
      }
    }
    const place = this.places.take(retry);
    if (place !== undefined) await place;
    await this.waitForTurn();
    const sentAtMs = this.options.now();
    this.firstSentMs ??= sentAtMs;
    this.lastAcceptedMs ??= this.firstSentMs;
    return sentAtMs;
  }

  /** Requests a second the job is paced at now (the lower of --max-rps and the service's rate); undefined: not paced. */
  perSecond(): number | undefined {
    return this.gate.perSecond(this.options.now());
  }

  /** Calls `listener` each time the number of parked retries changes; returns how to stop. */
  onParked(listener: ParkedListener): () => void {
    this.parkedListeners.add(listener);
    return () => {
      this.parkedListeners.delete(listener);
    };
  }

  private park(change: number): void {
    this.parked += change;
    for (const listener of this.parkedListeners) listener(this.parked);
  }

  private async waitForPause(retryDelayMs: number | undefined): Promise<void> {
    const { now, sleep } = this.options;
    let untilMs = this.pausedUntilMs;
    const waitMs = Math.max(retryDelayMs ?? 0, untilMs - now());
    if (retryDelayMs === undefined && waitMs <= 0) return;
    await sleep(waitMs);
    while (this.pausedUntilMs > untilMs) {
      untilMs = this.pausedUntilMs;
      await sleep(Math.max(0, untilMs - now()));
    }
  }

  private async waitForTurn(): Promise<void> {
    const { now, sleep } = this.options;
    const tokenWaitMs = this.gate.reserve(now());
    if (tokenWaitMs > 0) {
      await sleep(tokenWaitMs);
      // A pause that began while this attempt waited for its token holds it too (the token stays spent).
      const pausedForMs = this.pausedUntilMs - now();
      if (pausedForMs > 0) await sleep(pausedForMs);
    }
  }

  /**
   * After an attempt: counts the answer by its kind, pauses the job when it says the whole job
   * must wait, tells the listeners. `caseScoped`: a 503 of this request speaks of its case.
   * `sentAtMs`: what `beforeAttempt` returned (now, when not given).
   */
  afterAttempt(
    method: string,
    path: string,
    status: number | undefined,
    retryAfter: string | undefined,
    caseScoped = false,
    sentAtMs?: number,
  ): AnswerKind {
    const nowMs = this.options.now();
    const sentMs = sentAtMs ?? nowMs;
    this.counts.requests++;
    this.lastAnsweredMs = nowMs;
    const kind = answerKind(status, caseScoped);
    this.routes.count(method, path, kind);
    const throttled = status === 429 || status === 503;
    if (status === 429) this.counts.answered429++;
    if (status === 503) this.counts.answered503++;
    if (kind === 'case-unavailable') this.counts.caseUnavailable++;
    if (kind === 'failed') this.counts.failed++;
    const hintMs = throttled && retryAfter !== undefined ? parseRetryAfterMs(retryAfter, nowMs) : undefined;
    const retryAfterMs = hintMs === undefined ? undefined : Math.min(hintMs, this.options.retryAfterCapMs);
    // A 429 or a case's 503 says the service is up as much as an accepted answer does.
    if (countsAsRefusal(kind)) this.refusedSinceAccepted++;
    else {
      this.refusedSinceAccepted = 0;
      this.lastAcceptedMs = nowMs;
    }
    const rateCut = this.gate.answered(kind, sentMs, nowMs);
    let pausedJob = false;
    if (kind === 'rate-limited') {
      if (retryAfterMs !== undefined && retryAfterMs > rateTokenRetryAfterMs) pausedJob = this.pauseFor(retryAfterMs);
    } else if (countsAsRefusal(kind) && this.serviceLooksDown(nowMs)) {
      pausedJob = this.pauseFor(retryAfterMs ?? downPauseMs);
      if (pausedJob) this.counts.downPauses++;
    }
    if (this.listeners.size > 0) {
      const latencyMs = Math.max(0, nowMs - sentMs);
      const report: AttemptReport = {
        ...{ method, path, status, throttled, kind, retryAfterMs, pausedJob },
        ...{ sentAtMs: sentMs, latencyMs, rateCut },
      };
      for (const listener of this.listeners) listener(report);
    }
    return kind;
  }

  /**
   * Nothing accepted for a second, and ten refusals or more meanwhile: the service is down (or
   * so far over its capacity that it serves none of ours). Never at the start of a burst of
   * refusals from a service at its capacity: it accepts some within the second.
   */
  private serviceLooksDown(nowMs: number): boolean {
    return this.refusedSinceAccepted >= downAfter.refusals && nowMs - (this.lastAcceptedMs ?? nowMs) >= downAfter.ms;
  }

  /** Calls `listener` after every attempt; returns how to stop. */
  onAttempt(listener: AttemptListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  stats(): PacingStats {
    const sendingMs =
      this.firstSentMs === undefined || this.lastAnsweredMs === undefined
        ? 0
        : Math.max(0, this.lastAnsweredMs - this.firstSentMs);
    return {
      maxRps: this.options.maxRps,
      ...this.counts,
      ...this.gate.stats(),
      retriesHeldBack: this.budget.retriesHeldBack,
      sendingMs,
      byRoute: this.routes.list(),
    };
  }

  /** Returns whether the pause started or grew longer. */
  private pauseFor(delayMs: number): boolean {
    if (!(delayMs > 0)) return false;
    const nowMs = this.options.now();
    const untilMs = nowMs + delayMs;
    if (untilMs <= this.pausedUntilMs) return false;
    this.counts.pausedMs += untilMs - Math.max(nowMs, this.pausedUntilMs);
    this.pausedUntilMs = untilMs;
    this.counts.pauses++;
    return true;
  }
}
