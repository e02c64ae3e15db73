import { RefusalError } from '../../errors/coded-error.js';

/**
 * When a webhook delivery is tried again: an answer other than 2xx is retried on a configurable
 * schedule. Pure: parsing, validation and the decision after each attempt.
 *
 * A schedule lists the waits before each retry, so `[a, b, c]` means up to four attempts: the
 * first at once, the second `a` after the first fails, and so on; after the last wait's attempt
 * fails too, the delivery is given up (`failed`).
 */

/** The webhook options cannot be used (a bad URL, schedule or timeout). Thrown by startWebhooks. */
export class WebhookConfigError extends RefusalError {
  readonly code = 'WEBHOOK_CONFIG';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WebhookConfigError';
  }
}

/**
 * Production retries every 30 minutes up to 24 times, 12 hours in all (docs/sandbox.md,
 * "Webhooks"). Locally nobody waits that long: the same shape (a handful of retries, growing
 * waits) scaled down so a retry shows within a second and a receiver that stays down is given up
 * after under two minutes (1 + 2 + 5 + 10 + 30 + 60 = 108 s, seven attempts).
 */
export const defaultRetryScheduleMs: readonly number[] = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];

/** A day: longer waits belong to production, and setTimeout misfires past 2^31 ms anyway. */
export const maxRetryDelayMs = 24 * 60 * 60 * 1000;
/** Production's own count is 24; a hundred leaves room without allowing a runaway list. */
export const maxRetries = 100;

const unitMs: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * `--webhook-retry-schedule`: comma-separated waits, each a number with a unit (`ms`, `s`, `m`,
 * `h`) or a bare number of milliseconds: `1s,5s,30s`, `250,500,1000`, `30m`. `none`: no retries.
 */
export function parseRetrySchedule(text: string): number[] {
  const trimmed = text.trim();
  if (trimmed === 'none') return [];
  if (trimmed === '')
    throw new WebhookConfigError(
      `retry schedule: expected a comma-separated list of waits like 1s,5s,30s (or none), got ''`,
    );
  const delaysMs = trimmed.split(',').map((entry, index) => parseDelay(entry.trim(), index));
  return validateRetrySchedule(delaysMs);
}

function parseDelay(entry: string, index: number): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(entry);
  const amount = match?.[1];
  if (match === null || amount === undefined) {
    throw new WebhookConfigError(
      `retry schedule entry ${index + 1}: expected a number with an optional unit (ms, s, m, h), like 500 or 5s, got '${entry}'`,
    );
  }
  return Math.round(Number(amount) * (unitMs[match[2] ?? 'ms'] ?? 1));
}

/** Checks a schedule given as numbers (the programmatic option) as the parser checks text. */
export function validateRetrySchedule(delaysMs: readonly number[]): number[] {
  if (delaysMs.length > maxRetries) {
    throw new WebhookConfigError(`retry schedule: expected at most ${maxRetries} retries, got ${delaysMs.length}`);
  }
  delaysMs.forEach((delayMs, index) => {
    if (!Number.isInteger(delayMs) || delayMs < 0 || delayMs > maxRetryDelayMs) {
      throw new WebhookConfigError(
        `retry schedule entry ${index + 1}: expected a whole number of milliseconds from 0 to ${maxRetryDelayMs}, got ${String(delayMs)}`,
      );
    }
  });
  return [...delaysMs];
}

export type NextStep = { outcome: 'delivered' } | { outcome: 'retrying'; delayMs: number } | { outcome: 'failed' };

/** What follows attempt number `attempt` (from 1): done, another try after a wait, or give up. */
export function nextStep(attempt: number, retryScheduleMs: readonly number[], delivered: boolean): NextStep {
  if (delivered) return { outcome: 'delivered' };
  // The wait after attempt n is the schedule's n-th entry; none left means the schedule is spent.
  const delayMs = retryScheduleMs[attempt - 1];
  if (delayMs === undefined) return { outcome: 'failed' };
  return { outcome: 'retrying', delayMs };
}

/** A 2xx answer is a delivery (the service asks receivers for a 2xx); 3xx is not followed. */
export function isDelivered(status: number | null): boolean {
  return status !== null && status >= 200 && status <= 299;
}
