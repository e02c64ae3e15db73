import { describe, expect, it } from 'vitest';
import { followThrottling, placesForPace } from '../../src/rate/follow-throttling.js';
import { pacingSummary } from '../../src/rate/throttling-summary.js';
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

describe('placesForPace', () => {
  it('is twice the requests on the wire that a pace needs at a latency, and two more; no bound when not paced', () => {
    expect(placesForPace(100, 50)).toBe(12);
    expect(placesForPace(150, 52)).toBe(18);
    expect(placesForPace(0.5, 50)).toBe(3);
    expect(placesForPace(undefined, 50)).toBe(Number.POSITIVE_INFINITY);
    expect(placesForPace(100, undefined)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('followThrottling', () => {
  it("429s cut no claims in flight: they set the client's pace to the service's rate, which then caps the claims to what it needs; warns once, sums up", async () => {
    const script: Step[] = [tooMany, unavailable, tooMany, ...Array.from({ length: 10 }, () => ok)];
    const server = await startScriptedServer(script);
    // clientFor's sleep returns at once: the pace's waits are booked, not waited.
    const client = clientFor(server.url, { retry: { maxAttempts: 1 } });
    const applied: number[] = [];
    const lines: LogLine[] = [];
    const follower = followThrottling({
      client,
      concurrency: 64,
      apply: (limit) => applied.push(limit),
      logger: recordingLogger(lines),
    });

    await client.events.list().catch(() => undefined);
    // Paced from the first 429: 0.7 of the one request sent in the last second; no claim in flight less yet (no latency known).
    expect(client.pacedPerSecond()).toBeLessThan(1);
    expect(follower.limit).toBe(64);
    for (let index = 1; index < script.length; index++) await client.events.list().catch(() => undefined);
    // At about 2 a second and a few ms a request (0 on a fast machine), the pace needs at most one request on the wire: 1 + 2 places.
    expect(follower.limit).toBeLessThanOrEqual(3);
    expect(follower.limit).toBeGreaterThanOrEqual(2);
    expect(Math.max(...applied)).toBeLessThanOrEqual(3);
    const appliedBefore = [...applied];
    const summary = follower.stop();
    await client.events.list().catch(() => undefined);
    expect(applied).toEqual(appliedBefore);

    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', fields: { status: 429, concurrency: 64, maxConcurrency: 64 } });
    expect(lines[0]?.message).toContain("paces to the service's rate");
    expect(summary).toMatchObject({
      requests: 13,
      answered429: 2,
      answered503: 1,
      pauses: 0,
      rate: { throttles: 2 },
      concurrency: { max: 64, current: 64, lowest: 64, rateLimited: 2, refused: 1, cuts: 0, overloadCuts: 0 },
    });
    expect(summary.rate.estimate).toBeGreaterThan(0);
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

  it('other errors say nothing about the service: thirty answers 500 neither cut nor count as refusals', async () => {
    const server = await startScriptedServer(() => json(500, { message: 'oops' }));
    const client = clientFor(server.url, { retry: { maxAttempts: 1 } });
    const applied: number[] = [];
    const follower = followThrottling({
      client,
      concurrency: 2,
      apply: (limit) => applied.push(limit),
      logger: recordingLogger([]),
    });
    for (let index = 0; index < 30; index++) await client.events.list().catch(() => undefined);
    expect(applied).toEqual([]);
    expect(follower.stop().concurrency).toMatchObject({ current: 2, lowest: 2, refused: 0, cuts: 0 });
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
    expect(lines.filter((line) => line.level === 'warn')).toMatchObject([
      { level: 'warn', fields: { status: 429, concurrency: 1, maxConcurrency: 1 } },
    ]);
    expect(follower.stop().concurrency).toMatchObject({ rateLimited: 2, cuts: 0, current: 1 });
    expect(lines[0]?.message).toContain("paces to the service's rate");
  });

  it('export has no concurrency: its summary is the pacing alone', async () => {
    const server = await startScriptedServer([tooMany, ok]);
    const client = clientFor(server.url, { retry: { maxAttempts: 2 } });
    await client.events.list();
    expect(pacingSummary(client)).toMatchObject({ requests: 2, answered429: 1, concurrency: undefined });
  });
});
