import type { PacingStats } from '../api/client/index.js';
import type { ThrottlingSummary } from './follow-throttling.js';

/**
 * What the job saw of the service's pace, for people (stderr) and as the JSON log's `throttling`
 * (docs/rate-limits.md, "Reading the summary").
 */

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
 *   requests: 2,061 in 21.2 s (97.2 a second)
 *   rate limited (429): 12 (0.6%); paced to the service's rate, last measured at 100.0 a second (cut 4 times, lowest 70.0)
 *   refused (503 or no answer): 102 (4.9%), each retried on its own, no slow-down
 *   the service was overloaded: 16 of 32 claims in flight for 20.0 s (lowest 16, 16 at the end)
 *   cases unavailable for filing (503): 37, each retried on its own while the others went on
 *   the pace was set by: the service's rate limit for 19.6 s, its capacity for 20.1 s (of 21.2 s sending)
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
  if (summary.answered429 > 0) lines.push(rateLimitedLine(summary, percent(summary.answered429)));
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
    lines.push(
      `the service looked down (nothing accepted for a second): the job paused ${times(summary, summary.downPauses)}`,
    );
  if (summary.caseUnavailable > 0)
    lines.push(
      `cases unavailable for filing (503): ${summary.caseUnavailable}, each retried on its own while the others went on`,
    );
  if (summary.maxRps !== undefined)
    lines.push(`--max-rps ${summary.maxRps}: ${summary.waitedForToken.toLocaleString('en-US')} waited for their turn`);
  const setBy = paceSetBy(summary);
  if (setBy !== undefined) lines.push(setBy);
  return lines;
}

/** The 429s, and the pace they set: the service's rate as last measured, how often cut, the lowest. */
function rateLimitedLine(summary: ThrottlingSummary, share: string): string {
  const { rate } = summary;
  const ratePauses = summary.pauses - summary.downPauses;
  const paused = ratePauses > 0 ? `; paused by Retry-After ${times(summary, ratePauses)}` : '';
  const followed =
    rate.estimate === undefined
      ? `paced at ${pace(summary)}`
      : `paced to the service's rate, last measured at ${rate.estimate.toFixed(1)} a second ` +
        `(cut ${rate.throttles === 1 ? 'once' : `${rate.throttles} times`}, lowest ${(rate.lowest ?? rate.estimate).toFixed(1)})`;
  return `rate limited (429): ${summary.answered429} (${share}); ${followed}${paused}`;
}

/** Which signal held the job back, and for how long: the service's rate (429s), its capacity (503s). */
function paceSetBy(summary: ThrottlingSummary): string | undefined {
  const parts: string[] = [];
  if (summary.rate.pacedMs > 0) parts.push(`the service's rate limit for ${seconds(summary.rate.pacedMs)}`);
  const heldMs = summary.concurrency?.heldMs ?? 0;
  if (heldMs > 0) parts.push(`its capacity for ${seconds(heldMs)}`);
  if (parts.length === 0) return undefined;
  const sending = summary.sendingMs > 0 ? ` (of ${seconds(summary.sendingMs)} sending)` : '';
  return `the pace was set by: ${parts.join(', ')}${sending}`;
}

function times(summary: ThrottlingSummary, count: number): string {
  return `${count} time${count === 1 ? '' : 's'}${count === summary.pauses ? `, ${seconds(summary.pausedMs)} in all` : ''}`;
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
