import { describe, expect, it } from 'vitest';
import type { ConcurrencyStats } from '../../src/rate/adaptive-concurrency.js';
import type { ThrottlingSummary } from '../../src/rate/follow-throttling.js';
import { formatThrottling, throttlingWorthTelling } from '../../src/rate/throttling-summary.js';

/** The summary's lines for people: each kind of refusal told apart, and which signal set the pace (docs/rate-limits.md). */

const concurrency = (stats: Partial<ConcurrencyStats>): ConcurrencyStats => ({
  max: 32,
  current: 32,
  lowest: 32,
  settled: 32,
  settledMs: 40_000,
  rateLimited: 0,
  refused: 0,
  cuts: 0,
  overloadCuts: 0,
  increases: 0,
  stepBacks: 0,
  heldMs: 0,
  ...stats,
});
const quiet: ThrottlingSummary = {
  maxRps: undefined,
  requests: 2000,
  answered429: 0,
  answered503: 0,
  caseUnavailable: 0,
  failed: 0,
  retriesHeldBack: 0,
  pauses: 0,
  downPauses: 0,
  pausedMs: 0,
  waitedForToken: 0,
  waitedForRate: 0,
  rate: { throttles: 0, estimate: undefined, lowest: undefined, pacedMs: 0 },
  sendingMs: 40_000,
  byRoute: [],
  concurrency: concurrency({}),
};

describe('formatThrottling: each kind of refusal told apart', () => {
  it.each([
    {
      name: 'never throttled',
      summary: quiet,
      lines: ['requests: 2,000 in 40.0 s (50.0 a second)', 'throttled: never (claims in flight stayed at 32)'],
    },
    {
      name: "rate limited: paced to the service's rate",
      summary: {
        ...quiet,
        requests: 2052,
        sendingMs: 20_520,
        answered429: 52,
        waitedForRate: 1800,
        rate: { throttles: 5, estimate: 101.26, lowest: 70.2, pacedMs: 19_600 },
        concurrency: concurrency({ rateLimited: 52 }),
      },
      lines: [
        'requests: 2,052 in 20.5 s (100.0 a second)',
        "rate limited (429): 52 (2.5%); paced to the service's rate, last measured at 101.3 a second (cut 5 times, lowest 70.2)",
        "the pace was set by: the service's rate limit for 19.6 s (of 20.5 s sending)",
      ],
    },
    {
      name: 'rate limited once, with a long Retry-After (an allowance spent for a while) that paused the job',
      summary: {
        ...quiet,
        requests: 2001,
        answered429: 1,
        pauses: 1,
        pausedMs: 30_000,
        rate: { throttles: 1, estimate: 50, lowest: 35, pacedMs: 0 },
      },
      lines: [
        'requests: 2,001 in 40.0 s (50.0 a second)',
        "rate limited (429): 1 (0.0%); paced to the service's rate, last measured at 50.0 a second (cut once, lowest 35.0); " +
          'paused by Retry-After 1 time, 30.0 s in all',
      ],
    },
    {
      name: 'single refusals, retried on their own',
      summary: { ...quiet, requests: 2012, answered503: 12, concurrency: concurrency({ refused: 12 }) },
      lines: [
        'requests: 2,012 in 40.0 s (50.3 a second)',
        'refused (503 or no answer): 12 (0.6%), each retried on its own, no slow-down',
      ],
    },
    {
      name: 'an overloaded service',
      summary: {
        ...quiet,
        requests: 2400,
        answered503: 380,
        failed: 20,
        concurrency: concurrency({
          settled: 9,
          settledMs: 40_000,
          lowest: 4,
          current: 16,
          refused: 400,
          cuts: 3,
          overloadCuts: 3,
        }),
      },
      lines: [
        'requests: 2,400 in 40.0 s (60.0 a second)',
        'refused (503 or no answer): 400 (16.7%), each retried on its own',
        'the service was overloaded: 9 of 32 claims in flight for 40.0 s (lowest 4, 16 at the end)',
      ],
    },
    {
      name: 'a service at its capacity: overloaded at first, then steps up taken back',
      summary: {
        ...quiet,
        requests: 4093,
        answered503: 93,
        concurrency: concurrency({
          max: 64,
          settled: 16,
          settledMs: 12_000,
          lowest: 16,
          current: 16,
          refused: 93,
          cuts: 2,
          overloadCuts: 2,
          increases: 4,
          stepBacks: 4,
          heldMs: 39_500,
        }),
      },
      lines: [
        'requests: 4,093 in 40.0 s (102.3 a second)',
        'refused (503 or no answer): 93 (2.3%), each retried on its own',
        'the service was overloaded: 16 of 64 claims in flight for 12.0 s (lowest 16, 16 at the end); a step up that brought refusals taken back 4 times',
        'the pace was set by: its capacity for 39.5 s (of 40.0 s sending)',
      ],
    },
    {
      name: 'a service down, retries held to the budget',
      summary: {
        ...quiet,
        requests: 400,
        failed: 380,
        retriesHeldBack: 120,
        pauses: 2,
        downPauses: 2,
        pausedMs: 2000,
        concurrency: concurrency({ current: 1, lowest: 1, settled: 1, refused: 380, cuts: 5, overloadCuts: 5 }),
      },
      lines: [
        'requests: 400 in 40.0 s (10.0 a second)',
        'refused (503 or no answer): 380 (95.0%), each retried on its own',
        'the service was overloaded: 1 of 32 claims in flight for 40.0 s (lowest 1, 1 at the end)',
        'retry budget: 120 retries waited for it (retries are kept to a fifth of first attempts, at least 10 a second)',
        'the service looked down (nothing accepted for a second): the job paused 2 times, 2.0 s in all',
      ],
    },
    {
      name: 'a service down for a while',
      summary: {
        ...quiet,
        requests: 300,
        failed: 200,
        pauses: 4,
        downPauses: 4,
        pausedMs: 4000,
        concurrency: concurrency({ current: 1, lowest: 1, settled: 32, refused: 200, cuts: 5, overloadCuts: 5 }),
      },
      lines: [
        'requests: 300 in 40.0 s (7.5 a second)',
        'refused (503 or no answer): 200 (66.7%), each retried on its own',
        'the service was overloaded: 32 of 32 claims in flight for 40.0 s (lowest 1, 1 at the end)',
        'the service looked down (nothing accepted for a second): the job paused 4 times, 4.0 s in all',
      ],
    },
    {
      name: 'cases unavailable for filing',
      summary: { ...quiet, requests: 4037, answered503: 37, caseUnavailable: 37 },
      lines: [
        'requests: 4,037 in 40.0 s (100.9 a second)',
        'cases unavailable for filing (503): 37, each retried on its own while the others went on',
      ],
    },
    {
      name: 'paced by --max-rps',
      summary: { ...quiet, maxRps: 45, sendingMs: 44_440, waitedForToken: 1990 },
      lines: [
        'requests: 2,000 in 44.4 s (45.0 a second)',
        'throttled: never (claims in flight stayed at 32)',
        '--max-rps 45: 1,990 waited for their turn',
      ],
    },
    {
      name: 'nothing left to send (a resumed job)',
      summary: { ...quiet, requests: 0, sendingMs: 0 },
      lines: ['requests: 0', 'throttled: never (claims in flight stayed at 32)'],
    },
    {
      name: 'export (no concurrency)',
      summary: { ...quiet, requests: 1, sendingMs: 3, answered503: 1, concurrency: undefined },
      lines: [
        'requests: 1 in 0.0 s (333.3 a second)',
        'refused (503 or no answer): 1 (100.0%), each retried on its own, no slow-down',
      ],
    },
  ])('$name', ({ summary, lines }) => {
    expect(formatThrottling(summary)).toEqual(lines);
  });
});

describe('throttlingWorthTelling', () => {
  it.each([
    { name: 'a run that neither met nor set a limit', summary: quiet, worth: false },
    { name: 'a 429', summary: { ...quiet, answered429: 1 }, worth: true },
    { name: 'a 503', summary: { ...quiet, answered503: 1 }, worth: true },
    { name: 'a pause', summary: { ...quiet, pauses: 1 }, worth: true },
    { name: 'a failure without an answer', summary: { ...quiet, failed: 1 }, worth: true },
    { name: '--max-rps set', summary: { ...quiet, maxRps: 10 }, worth: true },
  ])('$name: $worth', ({ summary, worth }) => {
    expect(throttlingWorthTelling(summary)).toBe(worth);
  });
});
