import type { AttemptListener } from '../api/client/pacing.js';
import type { Progress } from './progress.js';

/** How long a notice of a throttled or failed answer stays on the line after the last one. */
const lingerMs = 5000;

/**
 * Tells the progress line what the job is waiting on: a pause of the whole job (a 429's
 * Retry-After, or a service that looks down), counted down; a rate limit without one; single
 * refusals and failures retried on their own; cases unavailable for filing retried later.
 * Returns how to stop listening. Nothing is listened to when the progress line is not drawn.
 */
export function showServiceWaits(client: { onAttempt(listener: AttemptListener): () => void }, progress: Progress, now: () => number = Date.now): () => void {
  if (!progress.enabled) return () => undefined;
  let pausedUntilMs = 0;
  return client.onAttempt((report) => {
    const nowMs = now();
    if (report.pausedJob && report.retryAfterMs !== undefined && report.retryAfterMs > 0) {
      // Pauses overlap as the pacing's do: the job waits for the latest end.
      pausedUntilMs = Math.max(pausedUntilMs, nowMs + report.retryAfterMs);
      progress.notice('wait', `paused {left} (${report.status ?? ''} Retry-After)`, { untilMs: pausedUntilMs, countdown: true });
      return;
    }
    if (nowMs < pausedUntilMs) return;
    const linger = { untilMs: nowMs + lingerMs };
    if (report.kind === 'rate-limited') progress.notice('wait', 'rate limited (429)', linger);
    else if (report.kind === 'case-unavailable') progress.notice('wait', 'a case unavailable for filing (503): retried later', linger);
    else if (report.kind === 'refused' || report.kind === 'failed' || (report.status !== undefined && report.status >= 500)) {
      progress.notice('wait', `retrying (${report.status ?? 'no answer'})`, linger);
    }
  });
}

/** The breaker (import/breaker.ts) on the line while claims fail in a row: how near the run is to stopping. */
export function showBreaker(progress: Progress): (failuresInARow: number, threshold: number) => void {
  let shown = 0;
  return (failuresInARow, threshold) => {
    if (!progress.enabled || failuresInARow === shown) return;
    shown = failuresInARow;
    progress.notice('breaker', failuresInARow === 0 ? undefined : `${failuresInARow} failed in a row (stops at ${threshold})`);
  };
}
