import type { AttemptListener, PacingStats, ParkedListener } from '../api/client/index.js';
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
  };
  /** `--concurrency`: where the limit starts, and its ceiling. */
  concurrency: number;
  apply: (limit: number) => void;
  logger: { warn(fields: object, message: string): void; debug(fields: object, message: string): void };
  now?: () => number;
}

export function followThrottling(options: FollowOptions): ThrottleFollower {
  const now = options.now ?? Date.now;
  const controller = new AdaptiveConcurrency({ max: options.concurrency }, now());
  let parked = 0;
  let applied = controller.limit;
  options.client.limitOnWire(controller.limit);
  // The claims in flight: the controller's limit, and a place lent for each parked retry.
  const applyLimit = () => {
    options.client.limitOnWire(controller.limit);
    const next = controller.limit + Math.min(parked, 3 * options.concurrency);
    if (next === applied) return;
    applied = next;
    options.apply(next);
  };
  const listener = answersHeard(controller, applyLimit, options.logger, now);
  const unsubscribe = options.client.onAttempt(listener);
  const stopParked = options.client.onParked((count) => {
    parked = count;
    applyLimit();
  });
  return {
    get limit() {
      return controller.limit;
    },
    stop() {
      unsubscribe();
      stopParked();
      options.client.limitOnWire(Number.POSITIVE_INFINITY);
      return { ...options.client.pacing(), concurrency: controller.stats(now()) };
    },
  };
}

/**
 * Each answer the client reports, told to the controller by its kind; each change of the limit
 * applied, and logged: the first 429 and the first cut for overload at warn, the rest at debug.
 */
function answersHeard(
  controller: AdaptiveConcurrency,
  applyLimit: () => void,
  logger: FollowOptions['logger'],
  now: () => number,
): AttemptListener {
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
        const cut = controller.rateLimited(now());
        if (cut) applyLimit();
        // The first 429 at warn (even with nothing left to cut), every later cut at debug: not a line a second.
        if (!warned.rateLimited)
          logger.warn(
            logged(),
            'rate limited (429): claims in flight cut on each 429, growing back one at a time after a run of successes',
          );
        else if (cut) logger.debug(logged(), 'rate limited: fewer claims in flight');
        warned.rateLimited = true;
        return;
      }
      case 'refused':
      case 'failed': {
        const before = controller.limit;
        const cut = controller.refused(now());
        if (controller.limit === before) return;
        applyLimit();
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
        controller.succeeded(now());
        if (controller.limit === before) return;
        applyLimit();
        if (controller.limit > before)
          logger.debug(
            { concurrency: controller.limit, maxConcurrency: controller.max },
            'no refusals for a while: one more claim in flight',
          );
        else
          logger.debug(
            { concurrency: controller.limit, maxConcurrency: controller.max },
            'refusals came with the last step up: one claim fewer in flight',
          );
      }
    }
  };
}

/** For a sender without concurrency of its own (export): what the pacing saw. */
export function pacingSummary(client: { pacing(): PacingStats }): ThrottlingSummary {
  return { ...client.pacing(), concurrency: undefined };
}

/**
 * Whether the summary for people should speak of the pace: the service refused or rate limited
 * the job, failed to answer, or `--max-rps` paced it. A run that met none of it says nothing
 * more than before; the JSON log's `throttling` says it all either way.
 */
export function throttlingWorthTelling(summary: ThrottlingSummary): boolean {
  return (
    summary.answered429 + summary.answered503 + summary.failed > 0 || summary.pauses > 0 || summary.maxRps !== undefined
  );
}

/**
 * The summary's lines for people (stderr), one for each kind of refusal met, e.g.
 *   requests: 2,061 in 41.2 s (50.0 a second)
 *   rate limited (429): 52 (2.5%), paced at 50.0 a second; paused by Retry-After 26 times, 26.0 s in all
 *   refused (503 or no answer): 12 (0.6%), each retried on its own, no slow-down
 *   the service was overloaded: 9 of 32 claims in flight for 40.0 s (lowest 4, 16 at the end)
 *   cases unavailable for filing (503): 37, each retried on its own while the others went on
 * The pace kept is the first line: against a throttling service, what it allows.
 */
export function formatThrottling(summary: ThrottlingSummary): string[] {
  const lines = [requestsLine(summary)];
  const concurrency = summary.concurrency;
  const refused = summary.answered503 - summary.caseUnavailable + summary.failed;
  const percent = (count: number) => `${((100 * count) / Math.max(1, summary.requests)).toFixed(1)}%`;
  if (summary.answered429 + refused + summary.caseUnavailable === 0) {
    lines.push(
      `throttled: never${concurrency === undefined ? '' : ` (claims in flight stayed at ${concurrency.max})`}`,
    );
  }
  if (summary.answered429 > 0) {
    const ratePauses = summary.pauses - summary.downPauses;
    const paused = ratePauses > 0 ? `; paused by Retry-After ${times(ratePauses)}` : '';
    lines.push(
      `rate limited (429): ${summary.answered429} (${percent(summary.answered429)}), paced at ${pace(summary)}${paused}`,
    );
  }
  if (refused > 0) {
    const overloaded = (concurrency?.overloadCuts ?? 0) > 0 || summary.downPauses > 0;
    lines.push(
      `refused (503 or no answer): ${refused} (${percent(refused)}), each retried on its own${overloaded ? '' : ', no slow-down'}`,
    );
  }
  const stepBacks =
    concurrency === undefined || concurrency.stepBacks === 0
      ? ''
      : `; a step up that brought refusals taken back ${concurrency.stepBacks === 1 ? 'once' : `${concurrency.stepBacks} times`}`;
  if (concurrency !== undefined && concurrency.overloadCuts > 0) {
    lines.push(
      `the service was overloaded: ${concurrency.settled} of ${concurrency.max} claims in flight for ` +
        `${seconds(concurrency.settledMs)} (lowest ${concurrency.lowest}, ${concurrency.current} at the ` +
        `end)${stepBacks}`,
    );
  } else if (concurrency !== undefined && (concurrency.cuts > 0 || concurrency.stepBacks > 0)) {
    lines.push(
      `claims in flight: settled at ${concurrency.settled} of ${concurrency.max} (lowest ${concurrency.lowest}, ${concurrency.current} at the end)${stepBacks}`,
    );
  }
  if (summary.retriesHeldBack > 0)
    lines.push(
      `retry budget: ${summary.retriesHeldBack} retries waited for it (retries are kept to a fifth of first attempts, at least 10 a second)`,
    );
  if (summary.downPauses > 0)
    lines.push(`the service looked down (nothing accepted for a second): the job paused ${times(summary.downPauses)}`);
  if (summary.caseUnavailable > 0)
    lines.push(
      `cases unavailable for filing (503): ${summary.caseUnavailable}, each retried on its own while the others went on`,
    );
  if (summary.maxRps !== undefined)
    lines.push(`--max-rps ${summary.maxRps}: ${summary.waitedForToken.toLocaleString('en-US')} waited for their turn`);
  return lines;

  function times(count: number): string {
    return `${count} time${count === 1 ? '' : 's'}${count === summary.pauses ? `, ${seconds(summary.pausedMs)} in all` : ''}`;
  }
}

function pace(summary: ThrottlingSummary): string {
  return summary.sendingMs <= 0
    ? 'an unknown rate'
    : `${((1000 * summary.requests) / summary.sendingMs).toFixed(1)} a second`;
}

function requestsLine(summary: ThrottlingSummary): string {
  const count = summary.requests.toLocaleString('en-US');
  if (summary.sendingMs <= 0) return `requests: ${count}`;
  return `requests: ${count} in ${seconds(summary.sendingMs)} (${((1000 * summary.requests) / summary.sendingMs).toFixed(1)} a second)`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
