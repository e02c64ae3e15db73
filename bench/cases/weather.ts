import { join } from 'node:path';
import { plannedRows, writeDisputesCsv } from '../../test/import/generate.js';
import { recordImport, replayInSandbox } from '../support/import-anchor.js';
import { importIntoSandbox, type ImportRun } from '../support/import-run.js';
import { heldWindows, measureRecovery } from '../support/recovery.js';
import { seededFaultFlags } from '../support/sandbox.js';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';

/**
 * A real service's weather (docs/rate-limits.md): a rate limit, sporadic 503s and a full service
 * at once, then each alone, then a limit raised mid-run. The "before" figures of the adaptive
 * pacing (the AIMD controller), measured against what the job could do with the best fixed
 * settings, against the service's own limits, and against the replay anchor.
 *
 * As the rate-limit and refusals cases: the real import as a process, one-row claims with
 * `--file-mode none` and no evidence (one request per claim), time from its summary's sending
 * phase, a fresh sandbox per run, the same seed for every run.
 */

const seed = 5;
const latencyMs = 50;
const claimsFor = { full: 2_000, quick: 200 };
const capacityClaimsFor = { full: 4_000, quick: 400 };
const recoveryFor = { full: { claims: 3_000, raiseAfterMs: 8_000 }, quick: { claims: 1_000, raiseAfterMs: 2_000 } };
const rateLimit = 100;
const capacity = { limit: 16, concurrency: 64 };
const adaptiveConcurrency = 32;
const goals = { storm: 0.9, rate: 0.9, rate429Share: 0.03, sporadic: 0.9, capacity: 0.85, capacity503Share: 0.05 };
const recovery = { fromRate: 50, toRate: 150, share: 0.9, goalSeconds: 10 };
const fixedSettings = [16, 8, 32].map((concurrency) => ({ concurrency, maxRps: 95 }));

const faultFlags = (...flags: string[]): string[] => seededFaultFlags(latencyMs, seed, ...flags);
const stormFlags = faultFlags('--fail-rate', '0.05', '--rate-limit', String(rateLimit), '--capacity', '16');

const percent = (part: number, whole: number): string => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;
const count = (value: unknown): string => (typeof value === 'number' ? value.toLocaleString('en-US') : '?');

/** The summary's throttling record in a few words: what the controller did, and what the service said. */
function throttlingNote(run: ImportRun): string {
  const limit = (run.throttling.concurrency ?? {}) as Record<string, unknown>;
  const pausedSeconds = typeof run.throttling.pausedMs === 'number' ? (run.throttling.pausedMs / 1000).toFixed(1) : '?';
  return (
    `${run.requests} requests, 429s ${run.answered429} (${percent(run.answered429, run.requests)}), ` +
    `503s ${run.answered503} (${percent(run.answered503, run.requests)}); ` +
    `concurrency: ${count(limit.cuts)} cuts (${count(limit.overloadCuts)} for overload), ${count(limit.increases)} raises, ` +
    `${count(limit.stepBacks)} taken back, settled at ${count(limit.settled)} of ${count(limit.max)} ` +
    `(lowest ${count(limit.lowest)}, ${count(limit.current)} at the end); ` +
    `paused ${count(run.throttling.pauses)} times, ${pausedSeconds} s; sending ${run.sendingSeconds.toFixed(2)} s`
  );
}

async function importOnce(
  context: BenchContext,
  input: string,
  name: string,
  setting: { sandboxFlags: string[]; concurrency: number; importFlags?: string[]; claims: number },
): Promise<ImportRun> {
  context.log(`weather: ${name}, sandbox ${setting.sandboxFlags.join(' ')}, --concurrency ${setting.concurrency}`);
  const run = await importIntoSandbox(context, { name, input, ...setting });
  if (run.outcomes.created !== setting.claims)
    throw new Error(
      `weather bench: expected ${setting.claims} claims created, got outcomes ${JSON.stringify(run.outcomes)}`,
    );
  return run;
}

async function stormRow(context: BenchContext, input: string, claims: number): Promise<BenchRow> {
  const adaptive = await importOnce(context, input, 'storm-adaptive', {
    sandboxFlags: stormFlags,
    concurrency: adaptiveConcurrency,
    claims,
  });
  const fixed: { name: string; perSecond: number; refusals: string }[] = [];
  for (const setting of fixedSettings) {
    const importFlags = ['--max-rps', String(setting.maxRps)];
    const run = await importOnce(context, input, `storm-fixed-${setting.concurrency}`, {
      sandboxFlags: stormFlags,
      concurrency: setting.concurrency,
      importFlags,
      claims,
    });
    fixed.push({
      name: `--concurrency ${setting.concurrency} --max-rps ${setting.maxRps}`,
      perSecond: claims / run.sendingSeconds,
      refusals: `429s ${run.answered429}, 503s ${run.answered503}`,
    });
  }
  const best = fixed.reduce((left, right) => (right.perSecond > left.perSecond ? right : left));
  const figure = claims / adaptive.sendingSeconds;
  const ratio = figure / best.perSecond;
  return {
    benchmark: `Import in a storm: rate limit, sporadic 503s and a full service at once (${claims.toLocaleString('en-US')} claims)`,
    figure: `${figure.toFixed(1)} claims/s`,
    baseline: `best fixed setting (${best.name}): ${best.perSecond.toFixed(1)} claims/s`,
    ratio,
    goal: `>= ${goals.storm}`,
    met: ratio >= goals.storm,
    note:
      `sandbox ${stormFlags.join(' ')}; adaptive: defaults, --concurrency ${adaptiveConcurrency}: ${throttlingNote(adaptive)}; ` +
      `fixed settings (same sandbox, adaptive concurrency still on under them): ` +
      fixed
        .map((setting) => `${setting.name} ${setting.perSecond.toFixed(1)} claims/s (${setting.refusals})`)
        .join(', '),
  };
}

async function rateLimitRow(context: BenchContext, input: string, claims: number): Promise<BenchRow> {
  const sandboxFlags = faultFlags('--rate-limit', String(rateLimit));
  const run = await importOnce(context, input, 'rate-limit', {
    sandboxFlags,
    concurrency: adaptiveConcurrency,
    claims,
  });
  const figure = claims / run.sendingSeconds;
  const ratio = figure / rateLimit;
  const share429 = run.answered429 / run.requests;
  return {
    benchmark: `Import under a rate limit alone, latency ${latencyMs} ms, adaptive (${claims.toLocaleString('en-US')} claims)`,
    figure: `${figure.toFixed(1)} claims/s; 429s ${percent(run.answered429, run.requests)}`,
    baseline: `sandbox --rate-limit ${rateLimit}: ${rateLimit} req/s`,
    ratio,
    goal: `>= ${goals.rate} and 429s <= ${100 * goals.rate429Share}% of requests`,
    met: ratio >= goals.rate && share429 <= goals.rate429Share,
    note:
      `sandbox ${sandboxFlags.join(' ')}; --concurrency ${adaptiveConcurrency}, no --max-rps; ${throttlingNote(run)}; ` +
      `fresh sandbox, its bucket full at the start (a burst of ${rateLimit})`,
  };
}

async function sporadicRow(context: BenchContext, input: string, claims: number): Promise<BenchRow> {
  const sandboxFlags = faultFlags('--fail-rate', '0.05');
  const run = await importOnce(context, input, 'sporadic', { sandboxFlags, concurrency: adaptiveConcurrency, claims });
  context.log('weather: recording a fault-free import for the anchor, then replaying it with 5% 503s');
  const sequences = await recordImport(context, input, 'none', adaptiveConcurrency);
  const anchor = await replayInSandbox(context, 'sporadic-anchor', sandboxFlags, sequences, adaptiveConcurrency);
  const figure = claims / run.sendingSeconds;
  const baseline = claims / anchor.sendingSeconds;
  const ratio = figure / baseline;
  return {
    benchmark: `Import, sporadic 503s alone, 5% (${claims.toLocaleString('en-US')} claims)`,
    figure: `${figure.toFixed(1)} claims/s`,
    baseline: `anchor client: ${baseline.toFixed(1)} claims/s`,
    ratio,
    goal: `>= ${goals.sporadic}`,
    met: ratio >= goals.sporadic,
    note:
      `sandbox ${sandboxFlags.join(' ')}; --concurrency ${adaptiveConcurrency}; ${throttlingNote(run)}; ` +
      `anchor (the recorded requests, ${adaptiveConcurrency} workers, each 503 waits its Retry-After): ` +
      `${anchor.requests} requests, ${anchor.refused} refused, ${anchor.sendingSeconds.toFixed(2)} s`,
  };
}

async function capacityRow(context: BenchContext): Promise<BenchRow> {
  const claims = context.quick ? capacityClaimsFor.quick : capacityClaimsFor.full;
  const input = join(context.workDir, 'capacity.csv');
  await writeDisputesCsv(input, plannedRows({ claims, sizeOf: () => 1, block: 1 }));
  const sandboxFlags = faultFlags('--capacity', String(capacity.limit));
  const run = await importOnce(context, input, 'capacity', { sandboxFlags, concurrency: capacity.concurrency, claims });
  const limit = capacity.limit / (latencyMs / 1000);
  const figure = claims / run.sendingSeconds;
  const ratio = figure / limit;
  return {
    benchmark:
      `Import against a full service alone, holding ${capacity.limit} at once, ` +
      `--concurrency ${capacity.concurrency} (${claims.toLocaleString('en-US')} claims)`,
    figure: `${figure.toFixed(1)} claims/s; 503s ${percent(run.answered503, run.requests)}`,
    baseline: `capacity ${capacity.limit} / ${latencyMs} ms: ${limit.toFixed(0)} claims/s`,
    ratio,
    goal: `>= ${goals.capacity} and 503s <= ${100 * goals.capacity503Share}%`,
    met: ratio >= goals.capacity && run.answered503 / run.requests <= goals.capacity503Share,
    note: `sandbox ${sandboxFlags.join(' ')}; ${throttlingNote(run)}; the goals of the refusals case's row`,
  };
}

async function recoveryRow(context: BenchContext): Promise<BenchRow> {
  const { claims, raiseAfterMs } = context.quick ? recoveryFor.quick : recoveryFor.full;
  const input = join(context.workDir, 'recovery.csv');
  await writeDisputesCsv(input, plannedRows({ claims, sizeOf: () => 1, block: 1 }));
  context.log(
    `weather: recovery, ${claims} claims, rate limit ${recovery.fromRate} raised to ${recovery.toRate} after ${raiseAfterMs / 1000} s`,
  );
  const faults = { seed, latencyMs, retryAfterSeconds: 1 };
  const measured = await measureRecovery(
    context,
    {
      input,
      concurrency: adaptiveConcurrency,
      fromRate: recovery.fromRate,
      toRate: recovery.toRate,
      raiseAfterMs,
      faults,
    },
    recovery.share,
  );
  if (measured.run.outcomes.created !== claims)
    throw new Error(`weather bench: expected ${claims} claims created, got ${JSON.stringify(measured.run.outcomes)}`);
  const target = recovery.share * recovery.toRate;
  const seconds = measured.secondsToPace;
  return {
    benchmark: `Import's pace after its rate limit is raised from ${recovery.fromRate} to ${recovery.toRate}/s (${claims.toLocaleString('en-US')} claims)`,
    figure:
      seconds === undefined ? `never reached ${target} claims/s` : `${seconds.toFixed(1)} s to ${target} claims/s`,
    baseline: `goal: ${recovery.goalSeconds} s`,
    ratio: seconds === undefined ? Number.POSITIVE_INFINITY : seconds / recovery.goalSeconds,
    goal: `<= 1 (seconds / ${recovery.goalSeconds}; smaller is better)`,
    met: seconds !== undefined && seconds <= recovery.goalSeconds,
    note:
      `sandbox --control --rate-limit ${recovery.fromRate} ${faultFlags().join(' ')}, ` +
      `raised by POST /_sandbox/faults ${raiseAfterMs / 1000} s after the first claim (the buckets refilled then); ` +
      `pace = claims created in the last 1 s, from the sandbox's creation times, reached when ${heldWindows} windows in a row reach it; ` +
      `${measured.paceBefore.toFixed(1)} claims/s before the raise, ` +
      `best 1 s after it ${measured.bestWindow}; --concurrency ${adaptiveConcurrency}; ${throttlingNote(measured.run)}`,
  };
}

async function run(context: BenchContext): Promise<BenchRow[]> {
  const claims = context.quick ? claimsFor.quick : claimsFor.full;
  const input = join(context.workDir, 'weather.csv');
  // One row per claim: claim ids CLM-D0000000 ..., valid for the generic mapping (generate.ts).
  await writeDisputesCsv(input, plannedRows({ claims, sizeOf: () => 1, block: 1 }));
  return [
    await stormRow(context, input, claims),
    await rateLimitRow(context, input, claims),
    await sporadicRow(context, input, claims),
    await capacityRow(context),
    await recoveryRow(context),
  ];
}

export const benchCase: BenchCase = { name: 'weather', run };
