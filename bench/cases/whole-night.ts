import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { genericHeader, rowCells, type RowSpec } from '../../test/import/generate.js';
import { barePairPerSecond } from '../support/bare-pair.js';
import { writeEvidenceFiles } from '../support/evidence-files.js';
import { importJob, type ImportRun } from '../support/import-run.js';
import { seededFaultFlags, withSandbox } from '../support/sandbox.js';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';

/**
 * A whole night as a bank runs it: the import command (the built CLI, a process) of claims of one
 * to three rows, each claim with a receipt of its own to upload, created and filed, at
 * `--concurrency 32` against the sandbox answering every request after 50 ms, with no refusals
 * and with 1% of the requests on every route refused by a 503 (Retry-After 1 s).
 *
 * The limit is what the latency allows: no client with 32 requests in flight, each answered after
 * 50 ms, sends the night's requests (every upload, create and filing, refused ones included)
 * faster than requests × 50 ms / 32. Two ratios to it: the sending phase (first request to last
 * answer, the import's summary) and the whole command (process start to exit: start-up, staging
 * before the first request, the results after the last). Beside them, the bare pair of the same
 * run (a closed-loop undici client and a node:http server answering after 50 ms, no code of ours):
 * what this machine allows anyone.
 */

const concurrency = 32;
const latencyMs = 50;
const seed = 5;
const sizes = { full: { claims: 8_000 }, quick: { claims: 200 } };
const settings = [
  { name: 'no refusals', failRate: 0, goals: { sending: 0.95, whole: 0.92 } },
  { name: 'sporadic 503s on every route, 1%', failRate: 0.01, goals: { sending: 0.93, whole: undefined } },
] as const;

/** One to three rows a claim, a third each: a night's mix of single and multi-transaction disputes. */
const rowsOfClaim = (claim: number): number => 1 + ((Math.imul(claim ^ 0x5bd1e995, 0x27d4eb2d) >>> 0) % 3);

/** 20 to 60 KB: a photographed receipt, a short letter. */
const documentBytes = (index: number): number => 20_000 + ((index * 53) % 41) * 1_000;

/** The claims' rows adjacent, each claim's first row naming its receipt. */
async function writeNight(file: string, claims: number, documentNames: readonly string[]): Promise<number> {
  const receipt = genericHeader.indexOf('receipt_file');
  const now = Date.now();
  const lines = [genericHeader.join(',')];
  for (let claim = 0; claim < claims; claim++)
    for (let transaction = 0; transaction < rowsOfClaim(claim); transaction++) {
      const spec: RowSpec = { claim, transaction };
      const cells = rowCells(spec, now);
      cells[receipt] = transaction === 0 ? (documentNames[claim] ?? '') : '';
      lines.push(cells.map((cell) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(','));
    }
  await writeFile(file, `${lines.join('\n')}\n`);
  return lines.length - 1;
}

/** `staging 0.52 s, sending 40.10 s, results 0.31 s`, as the import's finished record gives them. */
const phasesText = (phasesMs: Readonly<Record<string, number>>): string =>
  Object.entries(phasesMs)
    .map(([phase, ms]) => `${phase} ${(ms / 1000).toFixed(2)} s`)
    .join(', ');

interface NightRun {
  readonly run: ImportRun;
  readonly limitSeconds: number;
}

function checkEveryClaimFiled(run: ImportRun, claims: number): void {
  if (run.outcomes.filed === undefined || run.outcomes.filed < claims)
    throw new Error(
      `whole-night: expected every one of ${claims} claims filed, got outcomes ${JSON.stringify(run.outcomes)}`,
    );
}

function rowsOf(
  setting: (typeof settings)[number],
  night: { claims: number; rows: number },
  measured: NightRun,
  bare: number,
): BenchRow[] {
  const { run, limitSeconds } = measured;
  const limit = concurrency / (latencyMs / 1000);
  const sending = limitSeconds / run.sendingSeconds;
  const whole = limitSeconds / run.wallSeconds;
  const beforeFirst = run.wallSeconds - run.sendingSeconds;
  const common =
    `${night.claims.toLocaleString('en-US')} claims, ${night.rows.toLocaleString('en-US')} rows, a receipt each (20-60 KB), uploaded, created and filed (--file-mode chargeback); ` +
    `--concurrency ${concurrency}; sandbox ${seededFaultFlags(latencyMs, seed, ...(setting.failRate > 0 ? ['--fail-rate', String(setting.failRate)] : [])).join(' ')}; ` +
    `${run.requests.toLocaleString('en-US')} requests (503s ${run.answered503}), limit ${run.requests.toLocaleString('en-US')} × ${latencyMs} ms / ${concurrency} = ${limitSeconds.toFixed(2)} s; ` +
    `sending ${run.sendingSeconds.toFixed(2)} s, whole command ${run.wallSeconds.toFixed(2)} s (${beforeFirst.toFixed(2)} s outside sending: start-up, staging before the first request, results after the last; the import's phases: ${phasesText(run.phasesMs)}); ` +
    `bare pair of the same run: ${bare.toFixed(1)} req/s = ${(bare / limit).toFixed(3)} of the limit`;
  const label = `Whole night, ${setting.name} (${night.claims.toLocaleString('en-US')} claims)`;
  const sendingGoal = setting.goals.sending;
  const wholeGoal = setting.goals.whole;
  return [
    {
      benchmark: `${label}: sending`,
      figure: `${run.sendingSeconds.toFixed(2)} s`,
      baseline: `limit: ${limitSeconds.toFixed(2)} s`,
      ratio: sending,
      goal: `>= ${sendingGoal} (limit ÷ sending)`,
      met: sending >= sendingGoal,
      note: common,
    },
    {
      benchmark: `${label}: the whole command`,
      figure: `${run.wallSeconds.toFixed(2)} s`,
      baseline: `limit: ${limitSeconds.toFixed(2)} s`,
      ratio: whole,
      ...(wholeGoal === undefined ? {} : { goal: `>= ${wholeGoal} (limit ÷ whole command)`, met: whole >= wholeGoal }),
      note: `${wholeGoal === undefined ? 'informational; ' : ''}the same run as the row above`,
    },
  ];
}

async function run(context: BenchContext): Promise<BenchRow[]> {
  const { claims } = context.quick ? sizes.quick : sizes.full;
  const evidenceDir = join(context.workDir, 'evidence');
  await mkdir(evidenceDir, { recursive: true });
  context.log(`whole-night: writing ${claims} receipts of 20-60 KB`);
  const documents = await writeEvidenceFiles(evidenceDir, 'receipt', claims, documentBytes);
  const input = join(context.workDir, 'night.csv');
  const rows = await writeNight(
    input,
    claims,
    documents.map((document) => document.name),
  );
  const out: BenchRow[] = [];
  for (const setting of settings) {
    context.log(`whole-night: ${claims} claims (${rows} rows), ${setting.name}`);
    const name = `night-${String(setting.failRate)}`;
    const flags = seededFaultFlags(
      latencyMs,
      seed,
      ...(setting.failRate > 0 ? ['--fail-rate', String(setting.failRate)] : []),
    );
    const measured = await withSandbox(
      { cliBin: context.sandboxCliBin, dbFile: join(context.workDir, `${name}.sandbox.db`), flags },
      async (sandbox) => {
        const job = await importJob(context, sandbox.url, {
          name,
          input,
          fileMode: 'chargeback',
          concurrency,
          importFlags: ['--evidence-dir', evidenceDir],
        });
        return job.run;
      },
    );
    checkEveryClaimFiled(measured, claims);
    const limitSeconds = (measured.requests * latencyMs) / 1000 / concurrency;
    const bare = await barePairPerSecond(context, {
      name: `whole-night-${String(setting.failRate)}`,
      concurrency,
      requests: Math.min(measured.requests, 12_800),
      latencyMs,
    });
    out.push(...rowsOf(setting, { claims, rows }, { run: measured, limitSeconds }, bare));
  }
  return out;
}

export const benchCase: BenchCase = { name: 'whole-night', run };
