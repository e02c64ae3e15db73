import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BenchCase, BenchContext } from '../types.js';
import { createRequests, startCountingProxy, totalRequests, type CountingProxy } from '../support/counting-proxy.js';
import { count, writeGenericExport } from '../support/export.js';
import { genericMappingFile } from '../support/paths.js';
import { expectSuccess, runNodeMeasured, type MeasuredRun } from '../support/process.js';
import { benchApiKey, withSandbox } from '../support/sandbox.js';
import { claimsInSandbox } from '../support/sandbox-db.js';

/**
 * Resume: an import job run to the end against a sandbox process, then run again with the
 * same arguments and journal. The re-run must find every claim done in its journal and send no
 * create request; its wall time is compared with the original run's. Requests are counted on the
 * wire by a pass-through proxy in front of the sandbox (bench/support/counting-proxy.ts), present
 * in both runs so both pay the same hop; the sandbox's claims table is counted before and after.
 */

/**
 * The goal's 100,000 rows (61,550 claims, each created and filed): a few minutes against the
 * sandbox at concurrency 32, the most a nightly job would use on a machine like this one.
 */
const fullRows = 100_000;
const issueRows = 100_000;
const quickRows = 500;
/** The goal: the re-run of a finished import takes under this share of the original run's time. */
const goalRatio = 0.05;

interface Job {
  args: string[];
  env: NodeJS.ProcessEnv;
  resultsFile: string;
}

async function runJob(context: BenchContext, job: Job, what: string): Promise<MeasuredRun> {
  const run = await runNodeMeasured(job.args, {
    timeReport: join(context.workDir, 'resume-time.txt'),
    env: job.env,
    timeoutMs: 3_600_000,
  });
  expectSuccess(run, what);
  return run;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

const describe = (counts: ReadonlyMap<string, number>): string =>
  counts.size === 0 ? 'none' : [...counts].map(([request, times]) => `${request} × ${count(times)}`).join(', ');

export const benchCase: BenchCase = {
  name: 'resume',
  async run(context) {
    const rows = context.quick ? quickRows : fullRows;
    const input = join(context.workDir, `resume-${rows}.csv`);
    await writeGenericExport(input, rows);
    const dbFile = join(context.workDir, 'resume-sandbox.db');

    return withSandbox({ cliBin: context.sandboxCliBin, dbFile }, async (sandbox) => {
      const proxy: CountingProxy = await startCountingProxy(sandbox.url);
      try {
        const resultsFile = join(context.workDir, `resume-${rows}.results.csv`);
        const job: Job = {
          args: [
            context.cliBin,
            'import',
            input,
            '--mapping',
            genericMappingFile,
            '--journal',
            join(context.workDir, 'resume.journal.sqlite'),
            '--results',
            resultsFile,
            '--concurrency',
            '32',
            '--log-level',
            'warn',
          ],
          env: { ...process.env, CLAIMS_BASE_URL: proxy.url, CLAIMS_API_KEY: benchApiKey },
          resultsFile,
        };
        context.log(`resume: original run of ${count(rows)} rows against the sandbox…`);
        const original = await runJob(context, job, 'original import');
        const originalCounts = proxy.counts();
        const originalResults = await sha256Of(resultsFile);
        const claimsBefore = claimsInSandbox(dbFile);
        context.log(
          `resume: original run ${original.seconds.toFixed(1)} s, ${count(createRequests(originalCounts))} create requests, ${count(claimsBefore)} claims in the sandbox`,
        );
        if (createRequests(originalCounts) === 0 || claimsBefore === 0)
          throw new Error(`original import: expected claims created, got ${describe(originalCounts)}`);

        proxy.reset();
        context.log('resume: re-run of the finished job…');
        const rerun = await runJob(context, job, 're-run of the import');
        const rerunCounts = proxy.counts();
        const claimsAfter = claimsInSandbox(dbFile);
        const sameResults = (await sha256Of(resultsFile)) === originalResults;
        const rerunCreates = createRequests(rerunCounts);
        context.log(`resume: re-run ${rerun.seconds.toFixed(1)} s, requests: ${describe(rerunCounts)}`);

        return [
          {
            benchmark: `Resume: re-run of a finished import (${count(rows)} rows)`,
            figure: `re-run: ${rerun.seconds.toFixed(2)} s, ${count(rerunCreates)} create requests`,
            baseline: `original run: ${original.seconds.toFixed(1)} s, ${count(createRequests(originalCounts))} create requests`,
            ratio: rerun.seconds / original.seconds,
            goal: `0 create requests on the re-run, ratio < ${goalRatio} (re-run / original time, smaller is better)`,
            met: rerunCreates === 0 && claimsAfter === claimsBefore && rerun.seconds / original.seconds < goalRatio,
            note:
              `${rows === issueRows ? `${count(rows)} rows as the goal asks` : `${count(rows)} rows (a smoke run; the goal's is ${count(issueRows)})`}, original at ` +
              `${count(Math.round(rows / original.seconds))} rows/s; ` +
              `import processes (CLAIMS_BASE_URL, --concurrency 32) against a sandbox process, through a counting proxy; ` +
              `re-run requests on the wire: ${describe(rerunCounts)} (${count(totalRequests(rerunCounts))} in all); ` +
              `sandbox claims ${count(claimsBefore)} before, ${count(claimsAfter)} after; ` +
              `results CSV ${sameResults ? 'identical' : 'DIFFERENT'} after the re-run; ` +
              `original run requests: ${describe(originalCounts)}`,
          },
        ];
      } finally {
        await proxy.close();
      }
    });
  },
};
