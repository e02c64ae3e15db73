import { describe, expect, it } from 'vitest';
import {
  checkRetryPolicy,
  decideRetry,
  defaultRetryPolicy,
  parseRetryAfterMs,
  type AttemptContext,
  type AttemptOutcome,
  type RetryPolicy,
} from '../../src/api/retry-policy.js';

const policy: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 100,
  maxDelayMs: 1000,
  retryAfterCapMs: 10_000,
  deadlineMs: 60_000,
};
const half = () => 0.5;

function decide(outcome: AttemptOutcome, overrides: Partial<AttemptContext> = {}, random = half) {
  return decideRetry({ attempt: 1, outcome, repeatable: false, elapsedMs: 0, nowMs: 0, ...overrides }, policy, random);
}
const status = (code: number, retryAfter?: string): AttemptOutcome => ({ type: 'response', status: code, retryAfter });
const network = (code: string, sent: boolean): AttemptOutcome => ({ type: 'network-error', code, sent });

describe('decideRetry: what is retried', () => {
  it.each([
    // [outcome, repeatable, expected action or stop reason]
    [status(200), false, 'success'],
    [status(202), true, 'success'],
    [status(400), true, 'not-retryable'],
    [status(401), true, 'not-retryable'],
    [status(404), true, 'not-retryable'],
    [status(409), false, 'not-retryable'],
    [status(408), false, 'outcome-unknown'],
    [status(408), true, 'retry'],
    [network('DEPTH_ZERO_SELF_SIGNED_CERT', false), true, 'not-retryable'],
    [network('ERR_TLS_CERT_ALTNAME_INVALID', false), true, 'not-retryable'],
    [status(429), false, 'retry'],
    [status(503), false, 'retry'],
    [status(500), true, 'retry'],
    [status(502), true, 'retry'],
    [status(504), true, 'retry'],
    [status(500), false, 'outcome-unknown'],
    [status(504), false, 'outcome-unknown'],
    [status(501), true, 'not-retryable'],
    [network('ECONNREFUSED', false), false, 'retry'],
    [network('UND_ERR_CONNECT_TIMEOUT', false), false, 'retry'],
    [network('ECONNRESET', true), true, 'retry'],
    [network('ECONNRESET', true), false, 'outcome-unknown'],
    [network('UND_ERR_HEADERS_TIMEOUT', true), false, 'outcome-unknown'],
  ] as const)('%j, repeatable %s → %s', (outcome, repeatable, expected) => {
    const decision = decide(outcome, { repeatable });
    expect(decision.action === 'retry' ? 'retry' : decision.reason).toBe(expected);
  });
});

describe('decideRetry: how long to wait', () => {
  it('backs off exponentially with full jitter, capped at maxDelayMs', () => {
    const windows = [1, 2, 3, 4].map((attempt) => decide(status(503), { attempt }, () => 0.999_999));
    expect(windows).toEqual([
      { action: 'retry', delayMs: 99 },
      { action: 'retry', delayMs: 199 },
      { action: 'retry', delayMs: 399 },
      { action: 'retry', delayMs: 799 },
    ]);
    const capped = decideRetry(
      { attempt: 9, outcome: status(503), repeatable: true, elapsedMs: 0, nowMs: 0 },
      { ...policy, maxAttempts: 20 },
      () => 0.999_999,
    );
    expect(capped).toEqual({ action: 'retry', delayMs: 999 });
    expect(decide(status(503), { attempt: 3 }, () => 0)).toEqual({ action: 'retry', delayMs: 0 });
  });

  it('honours Retry-After in seconds or as an HTTP date, within its own cap', () => {
    const nowMs = Date.parse('2026-11-21T12:00:00Z');
    expect(decide(status(503, '2'))).toEqual({ action: 'retry', delayMs: 2000 });
    expect(decide(status(429, 'Sat, 21 Nov 2026 12:00:07 GMT'), { nowMs })).toEqual({ action: 'retry', delayMs: 7000 });
    expect(decide(status(429, '3600'))).toEqual({ action: 'retry', delayMs: 10_000 });
    // An unreadable hint falls back to the backoff.
    expect(decide(status(503, 'soon'))).toEqual({ action: 'retry', delayMs: 50 });
  });

  it('stops after maxAttempts, and before a delay that would pass the deadline', () => {
    expect(decide(status(503), { attempt: 5 })).toEqual({ action: 'stop', reason: 'attempts-exhausted' });
    expect(decide(status(503, '5'), { elapsedMs: 56_000 })).toEqual({ action: 'stop', reason: 'deadline-exceeded' });
    expect(decide(status(503, '4'), { elapsedMs: 56_000 })).toEqual({ action: 'retry', delayMs: 4000 });
  });
});

describe('parseRetryAfterMs', () => {
  it.each([
    ['0', 0],
    [' 12 ', 12_000],
    ['Sat, 21 Nov 2026 11:59:00 GMT', 0],
    ['Sat, 21 Nov 2026 12:01:00 GMT', 60_000],
    ['-1', undefined],
    ['1.5', undefined],
    ['', undefined],
  ])('%j → %s ms', (value, expected) => {
    expect(parseRetryAfterMs(value, Date.parse('2026-11-21T12:00:00Z'))).toBe(expected);
  });
});

describe('checkRetryPolicy', () => {
  it('accepts the default and refuses nonsense with "expected …, got …"', () => {
    expect(checkRetryPolicy(defaultRetryPolicy)).toBe(defaultRetryPolicy);
    expect(() => checkRetryPolicy({ ...policy, maxAttempts: 1.5 })).toThrow(
      'maxAttempts: expected a whole number from 1 and up, got 1.5',
    );
    expect(() => checkRetryPolicy({ ...policy, deadlineMs: Number.NaN })).toThrow(
      'deadlineMs: expected a number from 0 and up, got NaN',
    );
  });
});
