import type { AttemptListener, AttemptReport, PacingStats, ParkedListener } from '../api/client/index.js';
import { AdaptiveConcurrency, type ConcurrencyStats } from './adaptive-concurrency.js';

/**
 * The adapter between the client's answers and a sender's concurrency (docs/rate-limits.md):
 * every attempt the client reports goes to the AIMD controller by its kind, and each change of
 * the limit is applied twice: to the requests on the wire (the client's places, wire-places.ts),
 * and by the sender to its claims (`apply`: the `concurrency` of the p-limit queue that import,
 * migrate-v1 and withdraw run claims through). A retry parked on a refusal or on a case
 * unavailable for filing lends its claim's place: the sender may start one more claim while it
 * waits, so that as many claims as the limit have a request to send whatever waits (up to four
 * times `--concurrency` in all, a bound on memory), and the requests on the wire stay within it.
 *
 * While the job is paced (the service's rate, or `--max-rps`), the limit is also no more than
 * what that pace needs at the latency observed: twice the requests on the wire that Little's law
 * gives (rate x latency), and two more, so the pace is never short of a place.
 */

export interface ThrottlingSummary extends PacingStats {
  /** Absent for a sender that is not concurrent (export). */
  concurrency: ConcurrencyStats | undefined;
}

export interface ThrottleFollower {
  /** The limit now, for a sender that asks rather than being told. */
  readonly limit: number;
  /** Stops listening; what the job saw, for the summary and the logs. */
  stop(): ThrottlingSummary;
}

export interface FollowOptions {
  client: {
    onAttempt(listener: AttemptListener): () => void;
    onParked(listener: ParkedListener): () => void;
    limitOnWire(limit: number): void;
    pacing(): PacingStats;
    pacedPerSecond(): number | undefined;
    requestsOnWire(): number;
  };
  /** `--concurrency`: where the limit starts, and its ceiling. */
  concurrency: number;
  apply: (limit: number) => void;
  logger: { warn(fields: object, message: string): void; debug(fields: object, message: string): void };
  now?: () => number;
}

/** How much each accepted answer's latency moves the average (an exponentially weighted one). */
const latencyWeight = 0.1;

/** The requests on the wire a pace needs: twice rate x latency, and two more; no bound when not paced. */
export function placesForPace(perSecond: number | undefined, latencyMs: number | undefined): number {
  if (perSecond === undefined || latencyMs === undefined) return Number.POSITIVE_INFINITY;
  return Math.ceil((2 * perSecond * latencyMs) / 1000) + 2;
}

export function followThrottling(options: FollowOptions): ThrottleFollower {
  const now = options.now ?? Date.now;
  const controller = new AdaptiveConcurrency({ max: options.concurrency }, now());
  let parked = 0;
  let latencyMs: number | undefined;
  let onWire = controller.limit;
  let applied = controller.limit;
  options.client.limitOnWire(onWire);
  const capacity = capacityClock(now);
  // The claims in flight: the limit (the controller's, or the pace's need if lower), and a place lent for each parked retry.
  const applyLimit = () => {
    const forPace = placesForPace(options.client.pacedPerSecond(), latencyMs);
    // The service's capacity holds the job while the controller's limit, cut under --concurrency, is the lower bound.
    capacity.holding(controller.limit < options.concurrency && controller.limit <= forPace);
    const limit = Math.min(controller.limit, forPace);
    if (limit !== onWire) {
      onWire = limit;
      options.client.limitOnWire(limit);
    }
    const next = limit + Math.min(parked, 3 * options.concurrency);
    if (next === applied) return;
    applied = next;
    options.apply(next);
  };
  // The controller's limit was in use when the requests on the wire, with this answer's own (already free), filled it;
  // under a lower bound (the pace's), it was not, and is not grown.
  const limitInUse = () => options.client.requestsOnWire() + 1 >= controller.limit;
  const heard = answersHeard(controller, options.logger, now, limitInUse);
  const unsubscribe = options.client.onAttempt((report) => {
    if (report.kind === 'accepted' && report.status !== undefined && report.status < 500)
      latencyMs =
        latencyMs === undefined ? report.latencyMs : latencyMs + latencyWeight * (report.latencyMs - latencyMs);
    heard(report);
    applyLimit();
  });
  const stopParked = options.client.onParked((count) => {
    parked = count;
    applyLimit();
  });
  return {
    get limit() {
      return onWire;
    },
    stop() {
      unsubscribe();
      stopParked();
      options.client.limitOnWire(Number.POSITIVE_INFINITY);
      return { ...options.client.pacing(), concurrency: { ...controller.stats(now()), heldMs: capacity.heldMs() } };
    },
  };
}

/** How long the service's capacity held the job: the time during which `holding` was last told true. */
function capacityClock(now: () => number) {
  let holding = false;
  let sinceMs = now();
  let heldMs = 0;
  return {
    holding(isHolding: boolean) {
      const nowMs = now();
      if (holding) heldMs += Math.max(0, nowMs - sinceMs);
      sinceMs = nowMs;
      holding = isHolding;
    },
    heldMs: () => heldMs + (holding ? Math.max(0, now() - sinceMs) : 0),
  };
}

/**
 * Each answer the client reports, told to the controller by its kind, and logged: the first 429
 * and the first cut for overload at warn, the rest at debug.
 */
function answersHeard(
  controller: AdaptiveConcurrency,
  logger: FollowOptions['logger'],
  now: () => number,
  limitInUse: () => boolean,
): (report: AttemptReport) => void {
  const warned = { rateLimited: false, overloaded: false };
  return (report) => {
    // Built only for the answers that are logged: not an object per accepted answer.
    const logged = () => ({
      status: report.status,
      method: report.method,
      path: report.path,
      retryAfterMs: report.retryAfterMs,
      concurrency: controller.limit,
      maxConcurrency: controller.max,
    });
    switch (report.kind) {
      case 'rate-limited': {
        controller.rateLimited();
        // The first 429 at warn, every later cut of the pace at debug: not a line a second.
        if (!warned.rateLimited)
          logger.warn(
            logged(),
            "rate limited (429): the job now paces to the service's rate, measured from what it admits, and probes back up",
          );
        else if (report.rateCut) logger.debug(logged(), "rate limited: the pace cut to the service's rate");
        warned.rateLimited = true;
        return;
      }
      case 'refused':
      case 'failed': {
        const before = controller.limit;
        const cut = controller.refused(now());
        if (controller.limit === before) return;
        if (!cut) logger.debug(logged(), 'refusals came with the last step up: one claim fewer in flight');
        else if (!warned.overloaded)
          logger.warn(logged(), 'the service is overloaded (many recent requests refused): fewer claims in flight');
        else logger.debug(logged(), 'overloaded: fewer claims in flight');
        if (cut) warned.overloaded = true;
        return;
      }
      // That case's state, not the service's: its retry waits parked.
      case 'case-unavailable':
        return;
      case 'accepted': {
        if (report.status !== undefined && report.status >= 500) return;
        const before = controller.limit;
        controller.succeeded(now(), limitInUse());
        if (controller.limit === before) return;
        logger.debug(
          { concurrency: controller.limit, maxConcurrency: controller.max },
          controller.limit > before
            ? 'few refusals for a while: one more claim in flight'
            : 'refusals came with the last step up: one claim fewer in flight',
        );
      }
    }
  };
}
