import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ClaimsClient } from '../../src/api/client/index.js';
import { statusColumns } from '../../src/job-files/import/columns.js';
import { testApiKey } from '../helpers/client.js';
import { readResults } from './e2e-fixtures.js';
import { startImportProcess, type ImportExit } from '../helpers/import-process.js';
import { cliBin, startSandboxProcess } from '../helpers/sandbox-process.js';
import { expectedCaseId, expectedClaimId, plannedRows, writeDisputesCsv, type RowSpec } from './generate.js';

/**
 * The import SIGKILLed mid-run, the same command run again: exactly one claim per claim key in
 * the sandbox, none missing, each with exactly its cases, and a results CSV with every input row
 * once, in order, none `failed` (no claim is ever created twice: docs/import.md, "No duplicates").
 */

const mapping = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));

const claimCount = 150;
/** Every 4th claim has two rows, 10 rows apart (blocks of 10 claims): grouped by the journal, not by adjacency. */
const rowSpecs: RowSpec[] = [
  ...plannedRows({ claims: claimCount, sizeOf: (claim) => (claim % 4 === 0 ? 2 : 1), block: 10 }),
];
/** Expected claims and their cases, from the mapping's templates (claim.id `CLM-{dispute_ref}`, case_id `{dispute_ref}-{transaction_ref}`). */
const expectedCases = new Map<string, string[]>();
for (const spec of rowSpecs)
  expectedCases.set(expectedClaimId(spec.claim), [
    ...(expectedCases.get(expectedClaimId(spec.claim)) ?? []),
    expectedCaseId(spec),
  ]);
/** Kill once the sandbox holds at least this many claims (a fifth). */
const killAtClaims = 30;
/** A single import run never legitimately takes this long here; past it the run is stuck. */
const runDeadlineMs = 90_000;

interface Job {
  dir: string;
  args: string[];
  journal: string;
  results: string;
  sandboxUrl: string;
  client: ClaimsClient;
}

async function prepareJob(sandboxFlags: string[]): Promise<Job> {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-crash-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  const sandbox = await startSandboxProcess([
    '--api-key',
    testApiKey,
    '--db',
    join(dir, 'sandbox.db'),
    '--control',
    ...sandboxFlags,
  ]);
  const input = join(dir, 'disputes.csv');
  await writeDisputesCsv(input, rowSpecs);
  const journal = join(dir, 'disputes.journal.sqlite');
  const results = join(dir, 'disputes.results.csv');
  // Reads are retried by the client (503, resets after commit), so the polls see through the faults.
  const client = new ClaimsClient({ baseUrl: sandbox.url, apiKey: testApiKey, concurrency: 8 });
  onTestFinished(async () => client.close());
  const args = [
    cliBin,
    'import',
    input,
    '--mapping',
    mapping,
    '--base-url',
    sandbox.url,
    '--journal',
    journal,
    '--results',
    results,
    '--concurrency',
    '8',
    '--file-mode',
    'chargeback',
    '--log-level',
    'warn',
  ];
  return { dir, args, journal, results, sandboxUrl: sandbox.url, client };
}

async function sandboxClaimIds(client: ClaimsClient): Promise<string[]> {
  const ids: string[] = [];
  for await (const claim of client.claims.listAll({ limit: 100 })) ids.push(claim.claim_id);
  return ids;
}

/** Steps of the journal's claims, e.g. { done: 40, submitting: 3, staged: 107 }. */
function journalSteps(journal: string): Record<string, number> {
  const database = new Database(journal, { readonly: true });
  try {
    const rows = database.prepare('SELECT step, count(*) AS claims FROM claims GROUP BY step ORDER BY step').all() as {
      step: string;
      claims: number;
    }[];
    return Object.fromEntries(rows.map((row) => [row.step, row.claims]));
  } finally {
    database.close();
  }
}

/** Starts the import, waits until the sandbox holds some but not all of the claims, and SIGKILLs it. */
async function killMidRun(job: Job): Promise<{ claimsAtKill: number; steps: Record<string, number> }> {
  const run = startImportProcess(job.args, runDeadlineMs);
  let held = 0;
  const started = Date.now();
  while (held < killAtClaims) {
    const exited = run.exited();
    if (exited !== undefined)
      throw new Error(
        `the import ended (exit ${String(exited.code)}) before it could be killed, with ${held} claims seen:\n${exited.stderr}`,
      );
    if (Date.now() - started > runDeadlineMs)
      throw new Error(`the sandbox held ${held} claims after ${runDeadlineMs} ms`);
    await sleep(100);
    held = (await sandboxClaimIds(job.client)).length;
  }
  const killed = await run.kill();
  if (killed.signal !== 'SIGKILL')
    throw new Error(`the import ended (exit ${String(killed.code)}) before it could be killed`);
  // Whatever the import had in flight is now either committed or not; nothing else arrives.
  const claimsAtKill = (await sandboxClaimIds(job.client)).length;
  return { claimsAtKill, steps: journalSteps(job.journal) };
}

/** The temporary files beside the results file: the results a run was writing (`<results>.<hex>.tmp`). */
async function leftBeside(job: Job): Promise<string[]> {
  return (await readdir(job.dir)).filter((name) => /^disputes\.results\.csv\.[0-9a-f]{12}\.tmp$/.test(name));
}

async function runToEnd(job: Job): Promise<ImportExit> {
  return startImportProcess(job.args, runDeadlineMs).exit;
}

/** The invariants above, checked against the sandbox with its faults turned off. */
async function expectEveryClaimOnceWithItsCases(job: Job): Promise<void> {
  // Faults off (the sandbox's control prefix), so that checking cannot itself be disturbed.
  const response = await fetch(`${job.sandboxUrl}/_sandbox/faults`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${testApiKey}:`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: '{}',
  });
  expect(response.status).toBe(200);

  // Exactly one claim per claim key: every expected id once, nothing else (a duplicate under any id shows up here).
  const listed = await sandboxClaimIds(job.client);
  expect([...listed].sort()).toEqual([...expectedCases.keys()].sort());

  // Each claim with exactly its cases, filed.
  const mismatches: string[] = [];
  for (const [claimId, caseIds] of expectedCases) {
    const { data: claim } = await job.client.claims.retrieve(claimId);
    const got = (claim.cases ?? []).map((item) => item.case_id).sort();
    if (JSON.stringify(got) !== JSON.stringify([...caseIds].sort()))
      mismatches.push(`${claimId}: expected cases ${caseIds.join(', ')}, got ${got.join(', ')}`);
    const unfiled = (claim.cases ?? []).filter((item) => item.status !== 'chargeback_filed');
    if (unfiled.length > 0)
      mismatches.push(
        `${claimId}: expected every case chargeback_filed, got ${unfiled.map((item) => `${item.case_id} ${String(item.status)}`).join(', ')}`,
      );
  }
  expect(mismatches).toEqual([]);
  // No case outside those claims either (a create that half-happened would leave one).
  let cases = 0;
  for await (const _case of job.client.cases.listAll({ limit: 100 })) cases++;
  expect(cases).toBe(rowSpecs.length);

  // The results: every input row once, in input order, with its ids, and filed.
  const { header, rows } = await readResults(job.results);
  expect(header.slice(0, statusColumns.length)).toEqual([...statusColumns]);
  expect(rows.map((row) => row.line)).toEqual(rowSpecs.map((_, index) => String(index + 2)));
  expect(rows.map((row) => `${row.claim_id} ${row.case_id}`)).toEqual(
    rowSpecs.map((spec) => `${expectedClaimId(spec.claim)} ${expectedCaseId(spec)}`),
  );
  expect(rows.filter((row) => row.outcome === 'failed')).toEqual([]);
  expect(rows.filter((row) => row.outcome !== 'filed' || row.error_code !== '')).toEqual([]);
}

describe('import killed mid-run, then run again', () => {
  it(
    'leaves exactly one claim per claim key, each with its cases, and complete results',
    { timeout: 120_000 },
    async () => {
      const job = await prepareJob(['--latency-ms', '40-120', '--seed', '11']);
      const { claimsAtKill, steps } = await killMidRun(job);
      expect(claimsAtKill).toBeGreaterThanOrEqual(killAtClaims);
      expect(claimsAtKill).toBeLessThan(claimCount);
      // The kill caught remote calls in flight: the re-run has creates or filings to settle.
      expect((steps.submitting ?? 0) + (steps.filing ?? 0)).toBeGreaterThan(0);
      // The results were being written while claims were sent: the kill left them half written,
      // beside the results file, which does not exist yet.
      expect(await leftBeside(job)).toHaveLength(1);

      const second = await runToEnd(job);
      // Exit 0: no row is invalid, the sandbox injects no faults, and the claims the kill left
      // `submitting` or `filing` are settled by retrieving them, so every row ends `filed`.
      expect(second, second.stderr).toMatchObject({ code: 0, signal: null });
      console.log(
        `crash (no faults): ${rowSpecs.length} rows, ${claimCount} claims; killed with ${claimsAtKill} in the sandbox, journal steps ${JSON.stringify(steps)}; second run exit 0`,
      );
      await expectEveryClaimOnceWithItsCases(job);
      // The next run removed what the killed one left.
      expect(await leftBeside(job)).toEqual([]);
    },
  );

  it(
    'does the same when the service also fails (503) and drops connections after committing',
    { timeout: 120_000 },
    async () => {
      // Retry-After 0: each 503 would otherwise hold its request for a second, and at a 30% fail
      // rate the run would mostly wait; the faults are what is under test.
      const job = await prepareJob([
        '--latency-ms',
        '20-60',
        '--drop-after-commit-rate',
        '0.1',
        '--fail-rate',
        '0.3',
        '--retry-after-seconds',
        '0',
        '--seed',
        '5',
      ]);
      const { claimsAtKill, steps } = await killMidRun(job);
      expect(claimsAtKill).toBeGreaterThanOrEqual(killAtClaims);
      expect(claimsAtKill).toBeLessThan(claimCount);
      expect((steps.submitting ?? 0) + (steps.filing ?? 0)).toBeGreaterThan(0);

      // Under these faults a run may end with claims not finished (exit 1) or stop on the circuit
      // breaker (exit 3); both leave the journal resumable, so the same command is run again.
      const exits: (number | null)[] = [];
      for (let run = 0; run < 8; run++) {
        const exit = await runToEnd(job);
        expect(exit.signal, exit.stderr).toBeNull();
        expect([0, 1, 3], exit.stderr).toContain(exit.code);
        exits.push(exit.code);
        // Every row of this job can be filed, so anything short of exit 0 (a `failed` claim, or a
        // `created` one whose filing failed) is resumable: run again.
        if (exit.code === 0) break;
      }
      console.log(
        `crash (faults): ${rowSpecs.length} rows, ${claimCount} claims; killed with ${claimsAtKill} in the sandbox, journal steps ${JSON.stringify(steps)}; ` +
          `${exits.length} more run(s) to finish, exit codes ${exits.join(', ')}`,
      );
      expect(exits.at(-1)).toBe(0);
      // The faults were in force: some claims needed more than one attempt.
      const { rows } = await readResults(job.results);
      expect(rows.filter((row) => Number(row.attempts) > 1).length).toBeGreaterThan(0);
      await expectEveryClaimOnceWithItsCases(job);
    },
  );
});
