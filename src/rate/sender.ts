import pLimit, { type LimitFunction } from 'p-limit';
import type { Pacing } from './pacing.js';
import { CircuitBreaker, judgeFailure } from './breaker.js';
import {
  followThrottling,
  type FollowOptions,
  type ThrottleFollower,
  type ThrottlingSummary,
} from './follow-throttling.js';

/** The client a sender follows: what it answers, and its requests on the wire. */
export type FollowedClient = FollowOptions['client'];

/**
 * What the progress line shows of a sender, passed in by the job (src/progress is on this floor,
 * so it is not imported here): the service's waits while it sends, and the breaker after each claim.
 */
export interface SenderNotices {
  /** Starts showing what the job waits on; returns how to stop. */
  showWaits(client: FollowedClient): () => void;
  showBreaker(breaker: CircuitBreaker): void;
}

export interface SenderOptions<Followed extends FollowedClient | undefined = FollowedClient> {
  /** Undefined: nothing is sent (a dry run), so nothing is followed; the breaker and the stop check still hold. */
  client: Followed;
  pacing: Pacing;
  logger: FollowOptions['logger'];
  notices?: SenderNotices | undefined;
}

/**
 * One job's way of sending (docs/rate-limits.md), set up once for import, migrate-v1, withdraw and
 * track: the claims in flight held by p-limit to a limit that follows the service's answers, the
 * breaker that stops a run that can only burn rows, the notices on the progress line, and the
 * stop check between claims. p-limit applies a lower limit to the claims it starts next; those in
 * flight finish.
 */
export class Sender<Followed extends FollowedClient | undefined = FollowedClient> {
  readonly limit: LimitFunction;
  readonly breaker: CircuitBreaker;
  /** What stopped the job, when it is an error (a refused key, a network set up wrongly): the caller rethrows it. */
  fatal: unknown;
  private readonly follower: ThrottleFollower | undefined;
  private stopWaits: (() => void) | undefined;
  private summary: ThrottlingSummary | undefined;
  private finished = false;

  constructor(private readonly options: SenderOptions<Followed>) {
    const { concurrency, breakerThreshold } = options.pacing;
    const limit = pLimit(concurrency);
    this.limit = limit;
    this.breaker = new CircuitBreaker(breakerThreshold);
    const { client } = options;
    this.follower =
      client === undefined
        ? undefined
        : followThrottling({
            client,
            concurrency,
            apply: (next) => (limit.concurrency = next),
            logger: options.logger,
          });
    this.stopWaits = client === undefined ? undefined : options.notices?.showWaits(client);
  }

  /** The breaker is open or a stop was asked for: start nothing more. */
  get stopping(): boolean {
    return this.breaker.open || this.stopRequested;
  }

  /** Ctrl-C or SIGTERM. */
  get stopRequested(): boolean {
    return this.options.pacing.stopRequested();
  }

  succeeded(): void {
    this.breaker.succeeded();
  }

  /** A request that failed after its retries: fatal (recorded, the breaker opened) or counted towards the breaker. */
  failed(error: unknown): void {
    judgeFailure(this.breaker, error, (fatalError) => (this.fatal ??= fatalError));
  }

  /** Stops the job at once for this error (the first such error is the one the caller rethrows). */
  stopFor(error: unknown): void {
    this.fatal ??= error;
    this.breaker.trip((error as Error).message);
  }

  /** The breaker on the progress line: how near the run is to stopping. */
  showBreaker(): void {
    this.options.notices?.showBreaker(this.breaker);
  }

  /** Stops showing the service's waits (the job reads or writes no more). */
  stopShowingWaits(): void {
    this.stopWaits?.();
    this.stopWaits = undefined;
  }

  /**
   * Stops following the service: the wire unlimited again, the notices gone. What the job saw,
   * for the summary and the logs; the same on every call. Undefined when nothing was sent.
   */
  finish(): Followed extends FollowedClient ? ThrottlingSummary : ThrottlingSummary | undefined {
    this.stopShowingWaits();
    if (!this.finished) {
      this.finished = true;
      this.summary = this.follower?.stop();
    }
    return this.summary as Followed extends FollowedClient ? ThrottlingSummary : ThrottlingSummary | undefined;
  }
}
