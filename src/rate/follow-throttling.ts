import type { AttemptListener, PacingStats } from '../api/client/index.js';
import { AdaptiveConcurrency, type ConcurrencyStats } from './adaptive-concurrency.js';

/**
 * The adapter between the client's answers and a sender's concurrency (issue 13): every attempt
 * the client reports goes to the AIMD controller, and each change of its limit is applied by the
 * sender (`apply`: the `concurrency` of the p-limit queue that import and migrate-v1 run claims through).
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

interface FollowOptions {
  client: { onAttempt(listener: AttemptListener): () => void; pacing(): PacingStats };
  /** `--concurrency`: where the limit starts, and its ceiling. */
  concurrency: number;
  apply: (limit: number) => void;
  logger: { warn(fields: object, message: string): void; debug(fields: object, message: string): void };
  now?: () => number;
}

export function followThrottling(options: FollowOptions): ThrottleFollower {
  const now = options.now ?? Date.now;
  const controller = new AdaptiveConcurrency({ max: options.concurrency }, now());
  let warned = false;
  const listener: AttemptListener = (report) => {
    if (report.throttled) {
      const cut = controller.throttled(now());
      if (cut) options.apply(controller.limit);
      const fields = { status: report.status, method: report.method, path: report.path, retryAfterMs: report.retryAfterMs, concurrency: controller.limit, maxConcurrency: controller.max };
      // The first throttled answer at warn (even with nothing left to cut), every later cut at
      // debug: not a line a second.
      if (!warned) options.logger.warn(fields, 'the service is throttling: claims in flight cut on each 429 or 503, growing back one at a time after a run of successes');
      else if (cut) options.logger.debug(fields, 'throttled: fewer claims in flight');
      warned = true;
      return;
    }
    // Network errors and other 5xx say nothing about the service's rate either way.
    if (report.status === undefined || report.status >= 500) return;
    if (controller.succeeded(now())) {
      options.apply(controller.limit);
      options.logger.debug({ concurrency: controller.limit, maxConcurrency: controller.max }, 'no throttling for a while: one more claim in flight');
    }
  };
  const unsubscribe = options.client.onAttempt(listener);
  return {
    get limit() {
      return controller.limit;
    },
    stop() {
      unsubscribe();
      return { ...options.client.pacing(), concurrency: controller.stats(now()) };
    },
  };
}

/** For a sender without concurrency of its own (export): what the pacing saw. */
export function pacingSummary(client: { pacing(): PacingStats }): ThrottlingSummary {
  return { ...client.pacing(), concurrency: undefined };
}

/**
 * Whether the summary for people should speak of the pace: the service throttled the job, or
 * `--max-rps` paced it. A run that neither met nor set a limit says nothing more than before;
 * the JSON log's `throttling` says it all either way.
 */
export function throttlingWorthTelling(summary: ThrottlingSummary): boolean {
  return summary.answered429 + summary.answered503 > 0 || summary.pauses > 0 || summary.maxRps !== undefined;
}

/**
 * The summary's lines for people (stderr), e.g.
 *   requests: 2,061 in 41.2 s (50.0 a second)
 *   throttled: 52 (2.5%; 429: 52); paused 26 times by Retry-After, 26.0 s in all
 *   claims in flight: settled at 1 of 32 (lowest 1, 2 at the end)
 * The pace kept is the first line: against a throttling service, what it allows.
 */
export function formatThrottling(summary: ThrottlingSummary): string[] {
  const lines = [requestsLine(summary)];
  const throttled = summary.answered429 + summary.answered503;
  const concurrency = summary.concurrency;
  if (throttled === 0) {
    lines.push(`throttled: never${concurrency === undefined ? '' : ` (claims in flight stayed at ${concurrency.max})`}`);
  } else {
    const share = `${((100 * throttled) / Math.max(1, summary.requests)).toFixed(1)}%`;
    const byStatus = [summary.answered429 > 0 ? `429: ${summary.answered429}` : '', summary.answered503 > 0 ? `503: ${summary.answered503}` : ''].filter(Boolean).join(', ');
    const paused = summary.pauses > 0 ? `; paused ${summary.pauses} time${summary.pauses === 1 ? '' : 's'} by Retry-After, ${seconds(summary.pausedMs)} in all` : '';
    lines.push(`throttled: ${throttled} (${share}; ${byStatus})${paused}`);
    if (concurrency !== undefined) {
      lines.push(`claims in flight: settled at ${concurrency.settled} of ${concurrency.max} (lowest ${concurrency.lowest}, ${concurrency.current} at the end)`);
    }
  }
  if (summary.maxRps !== undefined) lines.push(`--max-rps ${summary.maxRps}: ${summary.waitedForToken.toLocaleString('en-US')} waited for their turn`);
  return lines;
}

function requestsLine(summary: ThrottlingSummary): string {
  const count = summary.requests.toLocaleString('en-US');
  if (summary.sendingMs <= 0) return `requests: ${count}`;
  return `requests: ${count} in ${seconds(summary.sendingMs)} (${((1000 * summary.requests) / summary.sendingMs).toFixed(1)} a second)`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
