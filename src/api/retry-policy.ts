/**
 * When to try a request again, and after how long: a pure function of the attempt, its outcome,
 * the policy and a random source, so tests are tables, not sleeps (after got's
 * calculate-retry-delay and stripe-node's `_shouldRetry`). The transport supplies the clock and
 * does the sleeping.
 */

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** First backoff window; it doubles with each attempt up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A `Retry-After` longer than this is shortened to it. */
  retryAfterCapMs: number;
  /** Time from the first attempt after which no new attempt starts. */
  deadlineMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  retryAfterCapMs: 60_000,
  deadlineMs: 180_000,
};

/** What one attempt came to. `sent` says whether the request may have reached the service. */
export type AttemptOutcome =
  | { type: 'response'; status: number; retryAfter?: string | undefined }
  | { type: 'network-error'; code: string; sent: boolean };

export interface AttemptContext {
  /** 1 for the first attempt. */
  attempt: number;
  outcome: AttemptOutcome;
  /** True when sending the request twice has the effect of sending it once. */
  repeatable: boolean;
  /** Time since the first attempt started. */
  elapsedMs: number;
  /** Wall clock, to read a `Retry-After` given as an HTTP date. */
  nowMs: number;
}

export type StopReason = 'success' | 'not-retryable' | 'outcome-unknown' | 'attempts-exhausted' | 'deadline-exceeded';

export type RetryDecision = { action: 'retry'; delayMs: number } | { action: 'stop'; reason: StopReason };

export function decideRetry(context: AttemptContext, policy: RetryPolicy, random: () => number): RetryDecision {
  const verdict = classify(context.outcome, context.repeatable);
  if (verdict !== 'retryable') return { action: 'stop', reason: verdict };
  if (context.attempt >= policy.maxAttempts) return { action: 'stop', reason: 'attempts-exhausted' };

  const delayMs = retryDelayMs(context, policy, random);
  if (context.elapsedMs + delayMs > policy.deadlineMs) return { action: 'stop', reason: 'deadline-exceeded' };
  return { action: 'retry', delayMs };
}

function classify(outcome: AttemptOutcome, repeatable: boolean): 'retryable' | StopReason {
  if (outcome.type === 'network-error') {
    // A certificate the client does not trust will not be trusted on the next attempt either.
    if (isCertificateError(outcome.code)) return 'not-retryable';
    // Nothing reached the service (refused, DNS, connect timeout): sending again is always safe.
    if (!outcome.sent) return 'retryable';
    // A reset or timeout after sending: a create may have happened. Only the caller can settle
    // it (the import retrieves the claim by its deterministic id), so it is never re-sent here.
    return repeatable ? 'retryable' : 'outcome-unknown';
  }
  const { status } = outcome;
  if (status < 400) return 'success';
  // 429 and 503 mean "not processed, come back later" (the service says so of run_workflow's 503).
  if (status === 429 || status === 503) return 'retryable';
  // 501 and 505 will answer the same way every time.
  if (status === 501 || status === 505) return 'not-retryable';
  // Other 5xx (500, 502, 504, ...) and 408 (possibly from a proxy that had already forwarded
  // the request): the write may or may not have been applied.
  if (status >= 500 || status === 408) return repeatable ? 'retryable' : 'outcome-unknown';
  return 'not-retryable';
}

function retryDelayMs(context: AttemptContext, policy: RetryPolicy, random: () => number): number {
  const { outcome } = context;
  if (outcome.type === 'response' && outcome.retryAfter !== undefined) {
    const hintMs = parseRetryAfterMs(outcome.retryAfter, context.nowMs);
    if (hintMs !== undefined) return Math.min(hintMs, policy.retryAfterCapMs);
  }
  // Full jitter (AWS architecture blog, "Exponential Backoff And Jitter"): uniform in [0, window).
  const windowMs = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (context.attempt - 1));
  return Math.floor(random() * windowMs);
}

/** Node's and OpenSSL's codes for an untrusted, expired or mismatched certificate. */
function isCertificateError(code: string): boolean {
  return /CERT|ERR_TLS_CERT_ALTNAME_INVALID|UNABLE_TO_(GET_ISSUER|VERIFY)/.test(code);
}

/** `Retry-After` is either delay-seconds or an HTTP date (RFC 9110, section 10.2.3). */
export function parseRetryAfterMs(value: string, nowMs: number): number | undefined {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Every HTTP date format names its month; Date.parse alone would also take "-1" or "1.5".
  if (!/[A-Za-z]{3}/.test(trimmed)) return undefined;
  const dateMs = Date.parse(trimmed);
  if (Number.isNaN(dateMs)) return undefined;
  return Math.max(0, dateMs - nowMs);
}

/** Checks a caller's policy once, at the door, with "expected …, got …" messages. */
export function checkRetryPolicy(policy: RetryPolicy): RetryPolicy {
  for (const [name, value] of Object.entries(policy)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new RangeError(`retry policy ${name}: expected a number from 0 and up, got ${String(value)}`);
    }
  }
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new RangeError(`retry policy maxAttempts: expected a whole number from 1 and up, got ${policy.maxAttempts}`);
  }
  return policy;
}
