import { RecentAnswers } from '../api/client/answer-kind.js';

/**
 * How many claims may be in flight, adapted to the service's answers (docs/rate-limits.md):
 * additive increase, multiplicative decrease (AIMD, as TCP does with its window). Pure: the caller
 * says what happened and when; the sender applies `limit`. Three signals, three answers:
 *
 * - A 429 (`rateLimited`): counted, nothing more here. The key's allowance is a rate, and the
 *   client paces to it (src/api/client/adaptive-rate.ts); claims in flight do not set a rate.
 * - A 503 or a failure without an answer (`refused`): overload only when the recent answers say
 *   so, never one alone. When `overloadShare` (20%) of a `window` of answers (64, or twice `max`)
 *   are refusals, the limit is cut once (as soon as that many are in: a fifth of a window is a
 *   fifth whatever comes next), and not again before the answers to the requests in flight at the
 *   cut are in (as TCP cuts once per window of data: RFC 5681, NewReno RFC 6582). Sporadic
 *   refusals at 5% reach 13 of 64 about once in 50,000 windows (binomial tail); a service
 *   refusing a fifth of the job's requests is overloaded.
 * - A step up that brought refusals is taken back: after each increase the next window of answers
 *   is watched (as many as a step up waits for), and as soon as its refusals pass the share before the step by `stepBackShare` (3%)
 *   of a window, the limit goes back down by one and the next step up waits four times as long (up to
 *   64 times). A service at its capacity refuses the one request too many, and again each one
 *   sent in its place; sporadic refusals come as often before a step as after it.
 * - A case unavailable for filing says nothing of the service: the caller does not report it.
 *
 * Growth: one more in flight each `growAfter` answers (as many as a window of them: time, at the
 * job's pace) while fewer than `growBelowShare` (a tenth) of the recent answers are refusals. A
 * sporadic refusal is one answer among the others: it neither cuts nor starts the count again.
 * Near a service's capacity, the step up that brings refusals is taken back (above), and the next
 * waits longer: the limit stays at what the service holds.
 */

export interface AdaptiveConcurrencyOptions {
  /** The ceiling, `--concurrency`; the limit starts there. */
  max: number;
  /** The floor; default 1. */
  min?: number;
  /** Multiplier on a throttled answer, in (0, 1); default 0.5. */
  decreaseFactor?: number;
  /** Answers before one more in flight; default 2 x max. */
  growAfter?: number;
  /** Growth waits while the share of refusals among the recent answers is at least this; default 0.1. */
  growBelowShare?: number;
  /** The share of refusals among recent answers that means overload; default 0.2. */
  overloadShare?: number;
  /** How many recent answers the share is taken over; default 2 x max, at least 64. */
  window?: number;
  /** The share of refusals after a step up that takes it back; default 0.03. */
  stepBackShare?: number;
}

/** The window after a step up: how many answers, how many refused, and the share refused before it. */
interface StepWatch {
  answers: number;
  refusals: number;
  shareBefore: number;
}

/** Never fewer refusals than this take a step back: at 1% sporadic, 3 in 64 answers come 2.6% of the time. */
const minStepBackRefusals = 3;

/** The longest wait before the next step up after steps taken back, in multiples of the usual. */
const maxGrowthPenalty = 64;

export interface ConcurrencyStats {
  max: number;
  /** The limit now. */
  current: number;
  lowest: number;
  /** The limit in force for the longest time so far (ties: the lower); `max` for a run never throttled. */
  settled: number;
  /** How long the limit was at `settled`, in all. */
  settledMs: number;
  /** Answers 429. */
  rateLimited: number;
  /** 503s and failures without an answer (a case's 503 not among them). */
  refused: number;
  cuts: number;
  /** The cuts made because the recent answers said overload: all of them (429s cut the pace, not the claims in flight). */
  overloadCuts: number;
  increases: number;
  /** Steps up taken back because refusals came with them. */
  stepBacks: number;
  /** How long the limit was under `max` after overload cuts or steps taken back (the follower counts only the time it was the lower bound). */
  heldMs: number;
}

export class AdaptiveConcurrency {
  readonly max: number;
  private readonly min: number;
  private readonly decreaseFactor: number;
  private readonly growAfter: number;
  private readonly growBelowShare: number;
  private readonly overloadShare: number;
  private readonly stepBackShare: number;
  private readonly recent: RecentAnswers;
  private watch: StepWatch | undefined;
  private growthPenalty = 1;
  private current: number;
  private lowest: number;
  /** Answers since the limit last moved. */
  private answersSinceMove = 0;
  /** Answers still to come in before the recent ones are judged again (those in flight at the last cut). */
  private holdJudgement = 0;
  private readonly counts = { rateLimited: 0, refused: 0, cuts: 0, overloadCuts: 0, increases: 0, stepBacks: 0 };
  /** Milliseconds spent at each limit, up to `sinceMs`. */
  private readonly msAtLimit = new Map<number, number>();
  private sinceMs: number;

  constructor(options: AdaptiveConcurrencyOptions, startMs: number) {
    this.max = wholeNumber('max', options.max, 1);
    this.min = wholeNumber('min', options.min ?? 1, 1);
    if (this.min > this.max)
      throw new RangeError(`adaptive concurrency min: expected at most max (${this.max}), got ${this.min}`);
    this.decreaseFactor = share('decreaseFactor', options.decreaseFactor ?? 0.5);
    this.growAfter = wholeNumber('growAfter', options.growAfter ?? 2 * this.max, 1);
    this.growBelowShare = share('growBelowShare', options.growBelowShare ?? 0.1);
    this.overloadShare = share('overloadShare', options.overloadShare ?? 0.2);
    this.recent = new RecentAnswers(wholeNumber('window', options.window ?? Math.max(64, 2 * this.max), 1));
    this.stepBackShare = share('stepBackShare', options.stepBackShare ?? 0.03);
    this.current = this.max;
    this.lowest = this.max;
    this.sinceMs = startMs;
  }

  get limit(): number {
    return this.current;
  }

  /** A 429: counted; the client's pace follows it, not the claims in flight. */
  rateLimited(): void {
    this.counts.rateLimited++;
  }

  /** A 503 (not a case's) or a failure without an answer. Returns true when the limit was cut for overload. */
  refused(nowMs: number): boolean {
    this.counts.refused++;
    this.answersSinceMove++;
    this.recent.record(true);
    if (this.watchStep(true, nowMs)) return false;
    if (!this.overloaded()) return false;
    return this.cut(nowMs);
  }

  /**
   * An answer the service took in. Returns true when the limit went up. `limitInUse`: as many
   * requests were on the wire as the limit allows; an answer while fewer were says nothing of
   * whether the service would take more, and does not count towards growth (as TCP does not grow
   * a window it does not fill: RFC 7661).
   */
  succeeded(nowMs: number, limitInUse = true): boolean {
    this.recent.record(false);
    if (this.holdJudgement > 0) this.holdJudgement--;
    this.watchStep(false, nowMs);
    if (!limitInUse) return false;
    this.answersSinceMove++;
    if (
      this.watch !== undefined ||
      this.answersSinceMove < this.growAfter * this.growthPenalty ||
      // Judged over a window's worth of answers at least (a cut at the floor clears the window too).
      this.recent.count < Math.min(this.recent.size, this.growAfter) ||
      this.recent.refusedShare >= this.growBelowShare ||
      this.current >= this.max
    )
      return false;
    this.counts.increases++;
    this.watch = { answers: 0, refusals: 0, shareBefore: this.recent.refusedShare };
    this.moveTo(this.current + 1, nowMs);
    return true;
  }

  /**
   * The answers after a step up (as many as a step up waits for). Returns true when the step was taken back: as soon as its
   * refusals reach `stepBackShare` of a window more than the share before the step (a service at
   * its capacity answers the request too many at once, and again for each one sent in its place).
   */
  private watchStep(refused: boolean, nowMs: number): boolean {
    const watch = this.watch;
    if (watch === undefined) return false;
    watch.answers++;
    if (refused) watch.refusals++;
    // As long as the wait for a step up: the pace of growth is the same watched or not.
    const size = this.growAfter;
    if (watch.refusals >= Math.max(minStepBackRefusals, Math.ceil((watch.shareBefore + this.stepBackShare) * size))) {
      this.watch = undefined;
      this.growthPenalty = Math.min(maxGrowthPenalty, this.growthPenalty * 4);
      this.counts.stepBacks++;
      // The answers to what is in flight now belong to the step taken back, not to a new judgement.
      this.holdJudgement = this.current;
      this.recent.clear();
      this.moveTo(Math.max(this.min, this.current - 1), nowMs);
      return true;
    }
    if (watch.answers >= size) {
      this.watch = undefined;
      // Kept; but a step that brought more refusals than before it (one more allowed: chance) may be
      // one past what the service holds, refused now and then: the next step up waits twice as long.
      const brought = watch.refusals > watch.shareBefore * watch.answers + 1;
      this.growthPenalty = brought
        ? Math.min(maxGrowthPenalty, this.growthPenalty * 2)
        : Math.max(1, this.growthPenalty / 2);
    }
    return false;
  }

  /** As many refusals as a fifth of a window, once the answers in flight at the last cut are in. */
  private overloaded(): boolean {
    if (this.holdJudgement > 0) {
      this.holdJudgement--;
      return false;
    }
    return this.recent.refusedCount >= Math.ceil(this.overloadShare * this.recent.size);
  }

  private cut(nowMs: number): boolean {
    const next = Math.max(this.min, Math.floor(this.current * this.decreaseFactor));
    // The answers to what was in flight at the cut are judged as one window with it.
    this.holdJudgement = this.current;
    this.recent.clear();
    this.watch = undefined;
    if (next === this.current) return false;
    this.counts.cuts++;
    this.counts.overloadCuts++;
    this.moveTo(next, nowMs);
    this.lowest = Math.min(this.lowest, next);
    return true;
  }

  stats(nowMs: number): ConcurrencyStats {
    const msAtLimit = new Map(this.msAtLimit);
    msAtLimit.set(this.current, (msAtLimit.get(this.current) ?? 0) + Math.max(0, nowMs - this.sinceMs));
    let settled = this.current;
    let longestMs = -1;
    let heldMs = 0;
    for (const [limit, ms] of msAtLimit) {
      if (limit < this.max) heldMs += ms;
      if (ms > longestMs || (ms === longestMs && limit < settled)) {
        settled = limit;
        longestMs = ms;
      }
    }
    return {
      max: this.max,
      current: this.current,
      lowest: this.lowest,
      settled,
      settledMs: Math.max(0, longestMs),
      ...this.counts,
      heldMs,
    };
  }

  private moveTo(limit: number, nowMs: number): void {
    this.answersSinceMove = 0;
    this.msAtLimit.set(this.current, (this.msAtLimit.get(this.current) ?? 0) + Math.max(0, nowMs - this.sinceMs));
    this.sinceMs = Math.max(this.sinceMs, nowMs);
    this.current = limit;
  }
}

function share(name: string, value: number): number {
  if (!(value > 0 && value < 1))
    throw new RangeError(`adaptive concurrency ${name}: expected a number between 0 and 1, got ${String(value)}`);
  return value;
}

function wholeNumber(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min)
    throw new RangeError(`adaptive concurrency ${name}: expected a whole number from ${min} up, got ${String(value)}`);
  return value;
}
