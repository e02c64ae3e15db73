import type { AttemptListener } from '../api/client/pacing.js';
import type { Progress } from './progress.js';

/** How long a notice of a throttled or failed answer stays on the line after the last one. */
const lingerMs = 5000;

/**
 * Tells the progress line what the job is waiting on (issue 29): a Retry-After pause, counted
 * down; a 429 or 503 without one; answers failing and retried. Returns how to stop listening.
 * Nothing is listened to when the progress line is not drawn.
 */
export function showServiceWaits(client: { onAttempt(listener: AttemptListener): () => void }, progress: Progress, now: () => number = Date.now): () => void {
  if (!progress.enabled) return () => undefined;
  let pausedUntilMs = 0;
  return client.onAttempt((report) => {
    const nowMs = now();
    if (report.throttled && report.retryAfterMs !== undefined && report.retryAfterMs > 0) {
      // Pauses overlap as the pacing's do: the job waits for the latest end.
      pausedUntilMs = Math.max(pausedUntilMs, nowMs + report.retryAfterMs);
      progress.notice('wait', `paused {left} (${report.status ?? ''} Retry-After)`, { untilMs: pausedUntilMs, countdown: true });
    } else if (report.throttled && nowMs >= pausedUntilMs) {
      progress.notice('wait', `throttled (${report.status ?? ''})`, { untilMs: nowMs + lingerMs });
    } else if ((report.status === undefined || report.status >= 500) && nowMs >= pausedUntilMs) {
      progress.notice('wait', `retrying (${report.status ?? 'no answer'})`, { untilMs: nowMs + lingerMs });
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
