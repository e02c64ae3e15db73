import { join } from 'node:path';
import { plannedRows, writeDisputesCsv } from '../../test/import/generate.js';
import { importIntoSandbox, type ImportRun } from '../support/import-run.js';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';

/**
 * Rate etiquette: claims/s of the real import (the built CLI, as a process) against
 * a sandbox that admits R requests a second per API key (`--rate-limit R`, a token bucket of R),
 * beside R itself. The goal is stated for the job's best settings against a known rate:
 * `--max-rps` just under R (docs/rate-limits.md), at --concurrency 32. The adaptive runs (no
 * --max-rps: AIMD and Retry-After pauses alone) are shown beside it, with their share of 429s.
 *
 * Choices, so the figure is about the pace:
 * - `--file-mode none`, one row per claim, no evidence: one request per claim (new_claim), so
 *   claims/s is requests/s; 429s retried are counted apart from the claims.
 * - Time is the sending phase only, from the import's own request logs (support/import-run.ts).
 * - A fresh sandbox per run, so each starts with a full bucket: its first second's burst of R
 *   is part of the figure (R / sending seconds, about +5% at 20 s); --max-rps never uses it.
 */

const ratePerSecond = 100;
const concurrency = 32;
const goalRatio = 0.9;
/** Just under R, what docs/rate-limits.md suggests when the service's rate is known. */
const maxRps = 95;
const secondsAtRate = { full: 20, quick: 2 };

interface Setting {
  name: string;
  flags: string[];
  /** More sandbox flags than --rate-limit. */
  sandboxFlags: string[];
  withGoal: boolean;
}

/**
 * The third row shows what adaptive concurrency alone costs against a slower service: at 50 ms a
 * request, R a second needs R x 50 ms in flight, and after each cut the claims in flight grow
 * back one per 2 x --concurrency answers.
 */
const settings: Setting[] = [
  { name: `--max-rps ${maxRps}`, flags: ['--max-rps', String(maxRps)], sandboxFlags: [], withGoal: true },
  { name: 'adaptive only (no --max-rps)', flags: [], sandboxFlags: [], withGoal: false },
  { name: 'adaptive only, sandbox --latency-ms 50', flags: [], sandboxFlags: ['--latency-ms', '50'], withGoal: false },
];

async function importOnce(context: BenchContext, input: string, name: string, setting: Setting): Promise<ImportRun> {
  const sandboxFlags = ['--rate-limit', String(ratePerSecond), ...setting.sandboxFlags];
  return importIntoSandbox(context, { name, input, sandboxFlags, concurrency, importFlags: setting.flags });
}

/** Every claim created, each by exactly one successful request (the others 429s): otherwise claims/s would not mean what it says. */
function checkEveryClaimOnce(run: ImportRun, claims: number): void {
  if (run.requests !== claims + run.answered429 || run.answered503 !== 0 || run.outcomes.created !== claims) {
    throw new Error(
      `rate-limit bench: expected ${claims} claims created by as many requests beside the 429s, got ${run.requests} requests (429: ${run.answered429}, 503: ${run.answered503}) and outcomes ${JSON.stringify(run.outcomes)}`,
    );
  }
}

function rowOf(setting: Setting, claims: number, run: ImportRun): BenchRow {
  const measured = claims / run.sendingSeconds;
  const ratio = measured / ratePerSecond;
  const throttled = run.answered429;
  const { requests } = run;
  return {
    benchmark: `Import under a rate limit, ${setting.name} (${claims.toLocaleString('en-US')} claims)`,
    figure: `${measured.toFixed(1)} claims/s`,
    baseline: `sandbox --rate-limit ${ratePerSecond}: ${ratePerSecond} req/s`,
    ratio,
    ...(setting.withGoal ? { goal: `>= ${goalRatio}`, met: ratio >= goalRatio } : {}),
    note:
      `${setting.withGoal ? '' : 'informational; '}--concurrency ${concurrency}, 1 request per claim (new_claim, --file-mode none); ` +
      `429s: ${throttled} of ${requests} requests (${((100 * throttled) / requests).toFixed(1)}%); ` +
      `sending ${run.sendingSeconds.toFixed(2)} s (first request to last answer, the import's summary), whole import ${run.wallSeconds.toFixed(2)} s; ` +
      `fresh sandbox per run, its bucket full at the start (a burst of ${ratePerSecond})`,
  };
}

async function run(context: BenchContext): Promise<BenchRow[]> {
  const claims = ratePerSecond * (context.quick ? secondsAtRate.quick : secondsAtRate.full);
  const input = join(context.workDir, 'rate-limit.csv');
  // One row per claim: claim ids CLM-D0000000 ..., valid for the generic mapping (generate.ts).
  await writeDisputesCsv(input, plannedRows({ claims, sizeOf: () => 1, block: 1 }));
  const rows: BenchRow[] = [];
  for (const [index, setting] of settings.entries()) {
    context.log(`rate-limit: ${claims} claims, ${setting.name}, against sandbox --rate-limit ${ratePerSecond}`);
    const importRun = await importOnce(context, input, `rate-limit-${index}`, setting);
    checkEveryClaimOnce(importRun, claims);
    rows.push(rowOf(setting, claims, importRun));
  }
  return rows;
}

export const benchCase: BenchCase = { name: 'rate-limit', run };
