import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { plannedRows, writeDisputesCsv, type RowSpec } from '../../test/import/generate.js';
import { barePairPerSecond } from '../support/bare-pair.js';
import { importJob, type ImportRun } from '../support/import-run.js';
import { benchApiKey, setSandboxFaults, withSandbox } from '../support/sandbox.js';
import { runWithdrawTimed, type WithdrawRun } from '../support/withdraw-run.js';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';

/**
 * Throughput of the real `bulk-disputes withdraw` (the built CLI, as a process, as the submit case
 * runs the import) at concurrency 32 against the sandbox answering every request after 50 ms,
 * beside the limit that latency sets: with N requests in flight no client can beat N / 50 ms
 * requests a second (the submit case's measure).
 *
 * Choices, so the figure is about withdrawing:
 * - The night to take back is made by the real import, into a sandbox answering at once: half the
 *   claims filed (`--file-mode chargeback`), half created only (`--file-mode none`), claims of one
 *   and two cases alternately; the withdraw's sources are the two imports' journals.
 * - Then the same sandbox process (same address, so the journals' service still matches) is told
 *   to answer after 50 ms (`POST /_sandbox/faults`, as the chaos test sets its faults), and the
 *   withdraw runs with `--scope claim`: per claim one retrieve and one withdrawal, 2 requests.
 * - The submit case counts claims with 1 request a claim, so its claims/s is its requests/s. Here
 *   the ratio is requests/s ÷ (32 / 50 ms), which is claims/s ÷ (32 / 50 ms / 2): checked that
 *   every claim took exactly 2 requests, so both readings give the same number.
 * - Time is the sending phase only, from the command's own summary (support/withdraw-run.ts): the
 *   first retrieve to the last withdrawal's answer, the pause between the plan and the sending
 *   included (that is the command's own work).
 * - Beside it, the bare pair (support/bare-pair.ts) with as many requests.
 */

const latencyMs = 50;
const concurrency = 32;
const goalRatio = 0.9;
const requestsPerClaim = 2;
/** Claims for this many seconds at the limit, as the submit case sizes its runs. */
const secondsAtLimit = { full: 10, quick: 0.5 };

const limitRequestsPerSecond = concurrency / (latencyMs / 1000);

/** Claims of one and two cases alternately, numbered from `first`. */
function* nightRows(first: number, claims: number): Generator<RowSpec> {
  for (const spec of plannedRows({ claims, sizeOf: (claim) => 1 + ((first + claim) % 2), block: 1 }))
    yield { ...spec, claim: first + spec.claim };
}

interface Night {
  journals: string[];
  cases: number;
  seeding: ImportRun[];
}

/** Half the claims filed, half created only, by the real import into the sandbox at `baseUrl`. */
async function importNight(context: BenchContext, baseUrl: string, claims: number): Promise<Night> {
  const halves = [
    { name: 'filed', fileMode: 'chargeback', first: 0, claims: Math.ceil(claims / 2) },
    { name: 'created', fileMode: 'none', first: Math.ceil(claims / 2), claims: Math.floor(claims / 2) },
  ] as const;
  const night: Night = { journals: [], cases: 0, seeding: [] };
  for (const half of halves) {
    const input = join(context.workDir, `${half.name}.csv`);
    const written = await writeDisputesCsv(input, nightRows(half.first, half.claims));
    const job = await importJob(context, baseUrl, { name: half.name, input, fileMode: half.fileMode, concurrency });
    night.seeding.push(job.run);
    night.journals.push(job.journal);
    night.cases += written.rows;
  }
  return night;
}

/** Every case withdrawn, every claim with exactly one retrieve and one withdrawal: otherwise the rates would not mean what they say. */
function checkTwoRequestsPerClaim(run: WithdrawRun, claims: number, cases: number): void {
  if (
    run.requests !== requestsPerClaim * claims ||
    run.answered429 + run.answered503 !== 0 ||
    run.cases !== cases ||
    run.outcomes.withdrawn !== cases
  ) {
    throw new Error(
      `withdraw bench: expected ${cases} cases of ${claims} claims withdrawn by ${requestsPerClaim * claims} requests, got ${run.requests} requests (429: ${run.answered429}, 503: ${run.answered503}), ${run.cases} cases, outcomes ${JSON.stringify(run.outcomes)}`,
    );
  }
}

/** Cases by status before the withdrawal, from the results: the mix the figure was taken on. */
async function statusesBefore(resultsFile: string): Promise<string> {
  const lines = parse<{ status_before: string }>(await readFile(resultsFile, 'utf8'), { columns: true });
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line.status_before, (counts.get(line.status_before) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count.toLocaleString('en-US')} ${status}`).join(', ');
}

function rowOf(claims: number, night: Night, run: WithdrawRun, mix: string, bare: number): BenchRow {
  const requestsPerSecond = run.requests / run.sendingSeconds;
  const claimsPerSecond = claims / run.sendingSeconds;
  const ratio = requestsPerSecond / limitRequestsPerSecond;
  const seeded = night.seeding
    .map((importRun) => `${JSON.stringify(importRun.outcomes)} in ${importRun.wallSeconds.toFixed(1)} s`)
    .join(' and ');
  return {
    benchmark: `Withdraw throughput, concurrency ${concurrency} (${claims.toLocaleString('en-US')} claims, ${night.cases.toLocaleString('en-US')} cases)`,
    figure: `${claimsPerSecond.toFixed(1)} claims/s = ${requestsPerSecond.toFixed(1)} req/s`,
    baseline: `limit ${concurrency} / ${latencyMs} ms: ${limitRequestsPerSecond.toFixed(0)} req/s = ${(limitRequestsPerSecond / requestsPerClaim).toFixed(0)} claims/s`,
    ratio,
    goal: `>= ${goalRatio} (req/s ÷ limit; claims/s ÷ limit / ${requestsPerClaim} is the same)`,
    met: ratio >= goalRatio,
    note:
      `${requestsPerClaim} requests per claim (retrieve, then withdraw; --scope claim), ${run.requests.toLocaleString('en-US')} in all; ` +
      `sending ${run.sendingSeconds.toFixed(2)} s (first retrieve to last withdrawal's answer, the command's summary), whole command ${run.wallSeconds.toFixed(2)} s; ` +
      `cases before: ${mix}; sources: the journals of two real imports into the same sandbox without latency (${seeded}); then sandbox latency ${latencyMs} ms via POST /_sandbox/faults; ` +
      `bare pair (closed-loop undici + node:http answering after ${latencyMs} ms, no code of ours): ${bare.toFixed(1)} req/s = ${(bare / limitRequestsPerSecond).toFixed(3)} of the limit`,
  };
}

async function run(context: BenchContext): Promise<BenchRow[]> {
  const seconds = context.quick ? secondsAtLimit.quick : secondsAtLimit.full;
  const claims = Math.ceil((limitRequestsPerSecond * seconds) / requestsPerClaim);
  const resultsFile = join(context.workDir, 'undo.results.csv');
  const { night, withdrawRun } = await withSandbox(
    { cliBin: context.sandboxCliBin, dbFile: join(context.workDir, 'withdraw.sandbox.db'), flags: ['--control'] },
    async (sandbox) => {
      context.log(`withdraw: importing ${claims} claims (half filed) into the sandbox, no latency`);
      const imported = await importNight(context, sandbox.url, claims);
      await setSandboxFaults(sandbox.url, { latencyMs });
      context.log(
        `withdraw: ${claims} claims at concurrency ${concurrency} against the sandbox (latency ${latencyMs} ms)`,
      );
      const args = [
        ...imported.journals,
        '--journal',
        join(context.workDir, 'undo.journal.sqlite'),
        '--results',
        resultsFile,
        '--concurrency',
        String(concurrency),
      ];
      const timed = await runWithdrawTimed({
        cliBin: context.cliBin,
        args,
        baseUrl: sandbox.url,
        apiKey: benchApiKey,
        cwd: context.workDir,
      });
      return { night: imported, withdrawRun: timed };
    },
  );
  checkTwoRequestsPerClaim(withdrawRun, claims, night.cases);
  const mix = await statusesBefore(resultsFile);
  const bare = await barePairPerSecond(context, {
    name: 'withdraw',
    concurrency,
    requests: withdrawRun.requests,
    latencyMs,
  });
  return [rowOf(claims, night, withdrawRun, mix, bare)];
}

export const benchCase: BenchCase = { name: 'withdraw', run };
