import type { AttemptListener } from '../api/client/pacing.js';
import type { Progress } from './progress.js';

/** How long a notice of a throttled or failed answer stays on the line after the last one. */
const lingerMs = 5000;

/**
 * Tells the progress line what the job is waiting on: a pause of the whole job (a 429's
 * Retry-After over a second, or a service that looks down), counted down; a rate limit followed as a rate; single
 * refusals and failures retried on their own; cases unavailable for filing retried later.
 * Returns how to stop listening. Nothing is listened to when the progress line is not drawn.
 */
export function showServiceWaits(
  client: { onAttempt(listener: AttemptListener): () => void },
  progress: Progress,
  now: () => number = Date.now,
): () => void {
  if (!progress.enabled) return () => undefined;
  let pausedUntilMs = 0;
  return client.onAttempt((report) => {
    const nowMs = now();
    if (report.pausedJob && report.retryAfterMs !== undefined && report.retryAfterMs > 0) {
      // Pauses overlap as the pacing's do: the job waits for the latest end.
      pausedUntilMs = Math.max(pausedUntilMs, nowMs + report.retryAfterMs);
      progress.notice('wait', `paused {left} (${report.status ?? ''} Retry-After)`, {
        untilMs: pausedUntilMs,
        countdown: true,
      });
      return;
    }
    if (nowMs < pausedUntilMs) return;
    const linger = { untilMs: nowMs + lingerMs };
    if (report.kind === 'rate-limited')
      progress.notice('wait', "rate limited (429): paced to the service's rate", linger);
    else if (report.kind === 'case-unavailable')
      progress.notice('wait', 'a case unavailable for filing (503): retried later', linger);
    else if (
      report.kind === 'refused' ||
      report.kind === 'failed' ||
      (report.status !== undefined && report.status >= 500)
    ) {
      progress.notice('wait', `retrying (${report.status ?? 'no answer'})`, linger);
    }
  });
}

/**
 * The notices a sender (rate/sender.ts) shows on the progress line: the service's waits while it
 * sends, and its breaker. Undefined without a progress line.
 */
export function senderNotices(progress: Progress | undefined):
  | {
      showWaits: (client: { onAttempt(listener: AttemptListener): () => void }) => () => void;
      showBreaker: (breaker: BreakerReading) => void;
    }
  | undefined {
  if (progress === undefined) return undefined;
  return { showWaits: (client) => showServiceWaits(client, progress), showBreaker: showBreaker(progress) };
}

/** What the progress line reads of a breaker (rate/breaker.ts). */
export interface BreakerReading {
  readonly recentFailures: number;
  readonly recentClaims: number;
  readonly threshold: number;
}

/** The breaker on the line while claims fail: how near the run is to stopping. */
export function showBreaker(progress: Progress): (breaker: BreakerReading) => void {
  let shown = '';
  return (breaker) => {
    if (!progress.enabled) return;
    const failures = breaker.recentFailures;
    const text =
      failures === 0
        ? ''
        : `${failures} of ${breaker.recentClaims} failed in the last minute (stops at ${breaker.threshold} and half)`;
    if (text === shown) return;
    shown = text;
    progress.notice('breaker', text === '' ? undefined : text);
  };
}
