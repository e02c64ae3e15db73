import { describe, expect, it } from 'vitest';
import type { ConcurrencyStats } from '../../src/rate/adaptive-concurrency.js';
import {
  followThrottling,
  formatThrottling,
  pacingSummary,
  throttlingWorthTelling,
  type ThrottlingSummary,
} from '../../src/rate/follow-throttling.js';
import { clientFor } from '../helpers/client.js';
import { json, startScriptedServer, type Step } from '../helpers/scripted-server.js';

/**
 * The adapter between the client's answers and a sender's concurrency (docs/rate-limits.md), with
 * a real client against a real server on loopback: what the server answers is what the controller
 * hears.
 */

const ok = json(200, { data: [], has_more: false });
const tooMany = json(429, { message: 'too many requests' });
const unavailable = json(503, { message: 'service unavailable' });

interface LogLine {
  level: 'warn' | 'debug';
  fields: object;
  message: string;
}

function recordingLogger(lines: LogLine[]) {
  return {
    warn: (fields: object, message: string) => lines.push({ level: 'warn', fields, message }),
    debug: (fields: object, message: string) => lines.push({ level: 'debug', fields, message }),
  };
}

describe('followThrottling', () => {
  it('cuts on each 429, not on a 503 alone, grows back after 2 x --concurrency answers, warns once, and sums up', async () => {
    // 429, 503, 429, then successes: 8 → 4 → (a single 503 cuts nothing) → 2, then one more after each 16 successes.
    const script: Step[] = [tooMany, unavailable, tooMany, ...Array.from({ length: 40 }, () => ok)];
    const server = await startScriptedServer(script);
    const client = clientFor(server.url, { retry: { maxAttempts: 1 } });
    const applied: number[] = [];
    const lines: LogLine[] = [];
    const follower = followThrottling({
      client,
      concurrency: 8,
      apply: (limit) => applied.push(limit),
      logger: recordingLogger(lines),
    });

    for (let index = 0; index < script.length; index++) await client.events.list().catch(() => undefined);
    expect(follower.limit).toBe(4);
    const summary = follower.stop();
    // Stopped: later answers change nothing.
    await client.events.list().catch(() => undefined);

    expect(applied).toEqual([4, 2, 3, 4]);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', fields: { status: 429, concurrency: 4, maxConcurrency: 8 } });
    expect(summary).toEqual({
      maxRps: undefined,
      requests: 43,
      answered429: 2,
      answered503: 1,
      caseUnavailable: 0,
      failed: 0,
      retriesHeldBack: 0,
      pauses: 0,
      downPauses: 0,
      pausedMs: 0,
      waitedForToken: 0,
      sendingMs: expect.any(Number) as unknown,
      concurrency: {
        max: 8,
        current: 4,
        lowest: 2,
        settled: expect.any(Number) as unknown,
        settledMs: expect.any(Number) as unknown,
        rateLimited: 2,
        refused: 1,
        cuts: 2,
        overloadCuts: 0,
        increases: 2,
        stepBacks: 0,
      },
    });
  });

  it("a case's 503 from filing neither cuts nor counts; its retry waits parked, lending its place to another claim", async () => {
    const caseUnavailable = json(
      503,
      { message: 'case is temporarily unavailable for filing; retry later' },
      { 'retry-after': '1' },
    );
    const server = await startScriptedServer([caseUnavailable, json(200, { success: true })]);
    const sleeps: number[] = [];
    const client = clientFor(server.url, {
      retry: { maxAttempts: 2 },
      sleep: async (delayMs) => void sleeps.push(delayMs),
    });
    const applied: number[] = [];
    const follower = followThrottling({
      client,
      concurrency: 4,
      apply: (limit) => applied.push(limit),
      logger: recordingLogger([]),
    });
    await client.cases.file('case_1', { file_mode: 'auto' });
    // One more claim while the retry waited its Retry-After, then back to 4; the job never paused.
    expect(applied).toEqual([5, 4]);
    expect(sleeps).toEqual([1000]);
    expect(follower.stop()).toMatchObject({
      answered503: 1,
      caseUnavailable: 1,
      pauses: 0,
      concurrency: { current: 4, cuts: 0, refused: 0 },
    });
  });

  it('other errors say nothing about the rate: a 500 neither cuts nor counts towards the run of successes', async () => {
    // 429 (2 → 1), then 500, 200, 500, 200, ...: growth back to 2 takes 4 answers of 200 (2 x 2).
    const server = await startScriptedServer((index) =>
      index === 0 ? tooMany : index % 2 === 1 ? json(500, { message: 'oops' }) : ok,
    );
    const client = clientFor(server.url, { retry: { maxAttempts: 1 } });
    const applied: number[] = [];
    const follower = followThrottling({
      client,
      concurrency: 2,
      apply: (limit) => applied.push(limit),
      logger: recordingLogger([]),
    });
    for (let index = 0; index < 8; index++) await client.events.list().catch(() => undefined);
    expect(applied).toEqual([1]);
    await client.events.list();
    expect(applied).toEqual([1, 2]);
    expect(follower.stop().concurrency).toMatchObject({ current: 2, lowest: 1, rateLimited: 1, cuts: 1, increases: 1 });
  });

  it('warns at the first throttled answer even when there is nothing left to cut (--concurrency 1)', async () => {
    const server = await startScriptedServer([tooMany, tooMany, ok]);
    const client = clientFor(server.url, { retry: { maxAttempts: 1 } });
    const applied: number[] = [];
    const lines: LogLine[] = [];
    const follower = followThrottling({
      client,
      concurrency: 1,
      apply: (limit) => applied.push(limit),
      logger: recordingLogger(lines),
    });
    for (let index = 0; index < 3; index++) await client.events.list().catch(() => undefined);
    expect(applied).toEqual([]);
    expect(lines).toMatchObject([{ level: 'warn', fields: { status: 429, concurrency: 1, maxConcurrency: 1 } }]);
    expect(follower.stop().concurrency).toMatchObject({ rateLimited: 2, cuts: 0, current: 1 });
  });

  it('export has no concurrency: its summary is the pacing alone', async () => {
    const server = await startScriptedServer([tooMany, ok]);
    const client = clientFor(server.url, { retry: { maxAttempts: 2 } });
    await client.events.list();
    expect(pacingSummary(client)).toMatchObject({ requests: 2, answered429: 1, concurrency: undefined });
  });
});

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
  sendingMs: 40_000,
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
      name: 'rate limited, with Retry-After pauses',
      summary: {
        ...quiet,
        requests: 2061,
        sendingMs: 41_220,
        answered429: 52,
        pauses: 26,
        pausedMs: 26_012,
        concurrency: concurrency({ current: 2, lowest: 1, settled: 1, rateLimited: 52, cuts: 5 }),
      },
      lines: [
        'requests: 2,061 in 41.2 s (50.0 a second)',
        'rate limited (429): 52 (2.5%), paced at 50.0 a second; paused by Retry-After 26 times, 26.0 s in all',
        'claims in flight: settled at 1 of 32 (lowest 1, 2 at the end)',
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
        }),
      },
      lines: [
        'requests: 4,093 in 40.0 s (102.3 a second)',
        'refused (503 or no answer): 93 (2.3%), each retried on its own',
        'the service was overloaded: 16 of 64 claims in flight for 12.0 s (lowest 16, 16 at the end); a step up that brought refusals taken back 4 times',
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
