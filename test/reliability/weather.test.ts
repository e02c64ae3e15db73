import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { plannedRows, writeDisputesCsv } from '../import/generate.js';
import { firstPaceHeld } from './pace-windows.js';
import { seedFrom } from './size.js';
import { importInWeather, justWait, sandboxClaims, setSandboxFaults, type WeatherRun } from './weather-run.js';

/**
 * A service's weather (docs/rate-limits.md), the proof with real processes: the built CLI's import
 * against a sandbox process on loopback with a rate limit, sporadic 503s and a capacity, and a
 * limit raised while it runs. The pace is the service's to set; the job must follow it, neither
 * collapsing under refusals nor staying low once more is allowed. Every run: every claim exactly once.
 *
 * The bench (`npm run bench -- --only weather`) measures ~90 claims/s of 100 allowed and ~7 s to
 * follow a raise; the bounds here are looser (each says why below): on a 2-core CI machine the sandbox,
 * the import and the test share the cores with other jobs, and every second lost to the scheduler is pace lost.
 * The file takes about 65 s on 2 cores: ~18 s for the storm, ~21 s for the raise, ~26 s for the capacity.
 */

const seed = seedFrom(5);
const rateLimit = 100;
const latencyFlags = ['--latency-ms', '50', '--retry-after-seconds', '1', '--seed', String(seed)];
/** Of the limit: the bench sees 0.9 and more; a quarter off leaves room for a loaded machine, not for a collapse. */
const paceShare = 0.75;
/**
 * Claims per run. Every bound is a share of a run, and a run's first seconds (the bucket's burst, the
 * first cuts) weigh more in a short one: at 300 claims the storm's pace measured 0.74 of the limit.
 * So the file does not shrink with BULK_DISPUTES_RELIABILITY=reduced.
 * - storm: 1,500 claims, ~15 s at 100 a second.
 * - raise: enough to outlast the raise and the 15 s allowed after it at the worst pace that passes.
 * - capacity: starting at 64 claims in flight against a service holding 16 costs 77 to 90 503s in the
 *   first second, whatever the size (measured: all of them in that second, none after), before the claims
 *   in flight are cut to what it holds; 5% of requests is 90 at 1,800 of them, and 2,500 claims leave room.
 */
const claims = { storm: 1500, raise: 2200, capacity: 2500 };
const deadlineMs = 120_000;
const testTimeoutMs = 180_000;

async function exportOf(count: number): Promise<{ dir: string; input: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-weather-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  const input = join(dir, 'disputes.csv');
  // One row per claim, valid for the generic mapping: one request per claim with --file-mode none.
  await writeDisputesCsv(input, plannedRows({ claims: count, sizeOf: () => 1, block: 1 }));
  return { dir, input };
}

const share = (count: number | undefined, run: WeatherRun<unknown>): number => (count ?? 0) / run.requests;
const percent = (value: number): string => `${(100 * value).toFixed(2)}%`;

function describeRun(name: string, run: WeatherRun<unknown>): string {
  const { rate, concurrency } = run.throttling;
  return (
    `weather, ${name}: ${run.pace.toFixed(1)} claims/s over ${(run.throttling.sendingMs / 1000).toFixed(1)} s sending, ` +
    `${run.requests} requests, answers ${JSON.stringify(run.byStatus)}; rate ${JSON.stringify(rate)}; ` +
    `claims in flight lowest ${concurrency?.lowest ?? '?'} of ${concurrency?.max ?? '?'}\n${run.summary}`
  );
}

describe(`weather: one-row claims against a sandbox process, seed ${seed}`, () => {
  it(
    `${claims.storm} claims, a rate limit of ${rateLimit} with 5% sporadic 503s: the pace follows the limit and does not collapse`,
    { timeout: testTimeoutMs },
    async () => {
      const { dir, input } = await exportOf(claims.storm);
      const run = await importInWeather(
        {
          dir,
          name: 'storm',
          input,
          claims: claims.storm,
          sandboxFlags: ['--rate-limit', String(rateLimit), '--fail-rate', '0.05', ...latencyFlags],
          concurrency: 32,
          deadlineMs,
        },
        justWait,
      );
      console.log(describeRun('rate limit and sporadic 503s', run));
      expect(run.pace).toBeGreaterThanOrEqual(paceShare * rateLimit);
      expect(share(run.byStatus[429], run)).toBeLessThanOrEqual(0.05);
      const { rate, concurrency } = run.throttling;
      // Rate limited, and the rate set the pace for most of the sending (measured: 83-90% of it).
      expect(rate.throttles).toBeGreaterThan(0);
      expect(rate.pacedMs).toBeGreaterThanOrEqual(0.5 * run.throttling.sendingMs);
      // The rate was measured from what the service admitted, not from what was sent (32 in flight at 50 ms
      // would make ~600 a second). The estimate is one second's count at the last 429, so the bounds are
      // wide: a bucket holding a second's worth admits up to twice the limit in the second after a lull
      // (seen: 165 on a loaded machine), and a second of answers bunched by a busy machine counts low.
      expect(rate.estimate).toBeGreaterThanOrEqual(0.5 * rateLimit);
      expect(rate.estimate).toBeLessThanOrEqual(2.2 * rateLimit);
      // No collapse: the 503s and the 429s together never drove the pace or the claims in flight to the floor.
      expect(rate.lowest).toBeGreaterThanOrEqual(20);
      expect(concurrency?.lowest).toBeGreaterThan(1);
      expect(run.summary).toMatch(
        /^rate limited \(429\): \d+ \([\d.]+%\); paced to the service's rate, last measured at [\d.]+ a second/m,
      );
      expect(run.summary).toMatch(/^the pace was set by: the service's rate limit for [\d.]+ s/m);
    },
  );

  it(
    `${claims.raise} claims, a rate limit raised from 50 to 150 while the job runs: the pace follows it up within 15 s`,
    { timeout: testTimeoutMs },
    async () => {
      const raiseAfterMs = 4000;
      const raised = { rateLimitPerSecond: 150, latencyMs: 50, retryAfterSeconds: 1, seed };
      const { dir, input } = await exportOf(claims.raise);
      const run = await importInWeather(
        {
          dir,
          name: 'raised',
          input,
          claims: claims.raise,
          sandboxFlags: ['--control', '--rate-limit', '50', ...latencyFlags],
          concurrency: 32,
          deadlineMs,
        },
        async (sandbox) => {
          while (!sandbox.ended() && sandboxClaims(sandbox.db).length === 0) await sleep(50);
          // Some seconds at 50 first: the job has met the limit and paces to it when the limit moves.
          await sleep(raiseAfterMs);
          if (sandbox.ended()) return undefined;
          await setSandboxFaults(sandbox.url, raised);
          return Date.now();
        },
      );
      const raisedAtMs = run.during;
      if (raisedAtMs === undefined) throw new Error('expected the import to run past the raise, got it ended first');
      // 0.9 of the new limit held 3 windows in a row (the buckets' refill at the raise buys one second's
      // burst, which must not pass for the pace). The goal is 10 s; the bench follows in ~7 s, this
      // test in 4-6 s. The cubic growth's slow first seconds stretch most on a loaded machine, hence 15 s.
      const target = 0.9 * raised.rateLimitPerSecond;
      const { reachedAtMs, bestWindow } = firstPaceHeld(run.creationTimes, raisedAtMs, target, 3);
      const firstMs = run.creationTimes[0] ?? raisedAtMs;
      const before = run.creationTimes.filter((timeMs) => timeMs < raisedAtMs).length;
      const secondsToPace = reachedAtMs === undefined ? undefined : (reachedAtMs - raisedAtMs) / 1000;
      console.log(
        `${describeRun('limit raised from 50 to 150', run)}\n` +
          `before the raise ${((1000 * before) / Math.max(1, raisedAtMs - firstMs)).toFixed(1)} claims/s; ` +
          `${target} claims/s held 3 s from ${secondsToPace?.toFixed(1) ?? 'never'} s after the raise; best 1 s window ${bestWindow}`,
      );
      expect(secondsToPace, `best 1 s window after the raise: ${bestWindow} claims`).toBeDefined();
      expect(secondsToPace).toBeLessThanOrEqual(15);
    },
  );

  it(
    `${claims.capacity} claims, a capacity of 16 with a rate limit of ${rateLimit} at --concurrency 64: the pace follows the limit, few refusals`,
    { timeout: testTimeoutMs },
    async () => {
      const { dir, input } = await exportOf(claims.capacity);
      const run = await importInWeather(
        {
          dir,
          name: 'capacity',
          input,
          claims: claims.capacity,
          sandboxFlags: ['--capacity', '16', '--rate-limit', String(rateLimit), ...latencyFlags],
          concurrency: 64,
          deadlineMs,
        },
        justWait,
      );
      console.log(describeRun('capacity and rate limit', run));
      expect(run.pace).toBeGreaterThanOrEqual(paceShare * rateLimit);
      expect(share(run.byStatus[503], run)).toBeLessThanOrEqual(0.05);
      expect(share(run.byStatus[429], run)).toBeLessThanOrEqual(0.05);
      console.log(`503s ${percent(share(run.byStatus[503], run))}, 429s ${percent(share(run.byStatus[429], run))}`);
    },
  );
});
