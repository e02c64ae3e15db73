import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'csv-parse/sync';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ClaimsClient } from '../../src/api/client/index.js';
import { testApiKey } from '../helpers/client.js';
import { cliBin, killHard, startSandboxProcess } from '../helpers/sandbox-process.js';
import { claimsWithCases, inPool, v1Case } from './fixtures.js';

/**
 * 500 v1 cases migrated, SIGKILLed in the middle, the same command run again: every case in exactly
 * one claim, the counts add up, the results complete.
 */

const caseCount = 500;
const caseIds = Array.from({ length: caseCount }, (_, index) => `v1case-${String(index + 1).padStart(4, '0')}`);
/** 10 claims of 2 cases made before the migration: their 20 cases are skipped. */
const preGrouped = Array.from({ length: 10 }, (_, index) => ({
  claimId: `pre_claim_${index}`,
  caseIds: [caseIds[index * 50] ?? '', caseIds[index * 50 + 1] ?? ''],
}));
const killAtClaims = 40;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function startMigrate(args: string[]): { child: ChildProcess; exit: Promise<Exit> } {
  const env: NodeJS.ProcessEnv = { ...process.env, CLAIMS_API_KEY: testApiKey };
  delete env.CLAIMS_BASE_URL;
  const child = spawn(process.execPath, [cliBin, 'migrate-v1', ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exit = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      resolve({ code, signal, stderr });
    }),
  );
  return { child, exit };
}

async function migratedClaimCount(client: ClaimsClient): Promise<number> {
  let count = 0;
  for await (const claim of client.claims.listAll()) if (claim.claim_id.startsWith('mig_')) count++;
  return count;
}

const migId = (caseId: string) =>
  `mig_${createHash('sha256')
    .update(`case=${JSON.stringify(caseId)}`)
    .digest('hex')
    .slice(0, 24)}`;

describe('migrate-v1 killed mid-run and run again', () => {
  it('puts every v1 case in exactly one claim, counts add up, results complete', { timeout: 180_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-migrate-'));
    onTestFinished(async () => rm(dir, { recursive: true, force: true }));
    const sandbox = await startSandboxProcess([
      '--api-key',
      testApiKey,
      '--db',
      join(dir, 'sandbox.db'),
      '--latency-ms',
      '5-20',
    ]);
    const client = new ClaimsClient({ baseUrl: sandbox.url, apiKey: testApiKey, concurrency: 16 });
    onTestFinished(async () => client.close());

    await inPool(caseIds, 16, async (caseId) => client.v1.cases.create(v1Case(caseId)));
    for (const group of preGrouped) await client.claims.create({ case_ids: group.caseIds, claim_id: group.claimId });

    const journal = join(dir, 'migrate.journal.sqlite');
    const results = join(dir, 'migrate.results.csv');
    const args = [
      '--base-url',
      sandbox.url,
      '--journal',
      journal,
      '--results',
      results,
      '--concurrency',
      '2',
      '--log-level',
      'warn',
    ];

    const first = startMigrate(args);
    let atKill = 0;
    for (;;) {
      const done = await Promise.race([first.exit.then(() => true), sleep(50).then(() => false)]);
      if (done) break;
      atKill = await migratedClaimCount(client);
      if (atKill >= killAtClaims) {
        await killHard(first.child);
        break;
      }
    }
    const firstExit = await first.exit;
    expect(firstExit.signal, `the first run finished before it could be killed:\n${firstExit.stderr}`).toBe('SIGKILL');
    expect(atKill).toBeLessThan(caseCount - 20);

    const second = await startMigrate(args).exit;
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(
      `migrate-v1 finished: ${caseCount} v1 cases = 480 migrated + 20 skipped + 0 failed + 0 rejected`,
    );

    // Every case in exactly one claim: the 10 made before, and one mig_ claim for each other case.
    const claims = await claimsWithCases(client);
    const owners = new Map<string, string[]>();
    for (const [claimId, cases] of claims)
      for (const caseId of cases) owners.set(caseId, [...(owners.get(caseId) ?? []), claimId]);
    expect(owners.size).toBe(caseCount);
    for (const caseId of caseIds) expect(owners.get(caseId), caseId).toHaveLength(1);
    for (const group of preGrouped) expect(claims.get(group.claimId)?.sort()).toEqual([...group.caseIds].sort());
    expect(claims.size).toBe(480 + preGrouped.length);
    const skippedIds = new Set(preGrouped.flatMap((group) => group.caseIds));
    for (const caseId of caseIds) if (!skippedIds.has(caseId)) expect(claims.get(migId(caseId))).toEqual([caseId]);

    // Results: every case once, in order, with its outcome.
    const rows: Record<string, string>[] = parse(await readFile(results, 'utf8'), { columns: true });
    expect(rows).toHaveLength(caseCount);
    expect(new Set(rows.map((row) => row.case_id))).toEqual(new Set(caseIds));
    for (const row of rows) {
      const caseId = row.case_id ?? '';
      const expectedClaim = owners.get(caseId)?.[0];
      expect(row.claim_id, caseId).toBe(expectedClaim);
      expect(row.outcome, caseId).toBe(skippedIds.has(caseId) ? 'skipped' : 'migrated');
    }
  });
});
