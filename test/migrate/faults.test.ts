import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { pino } from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { Progress } from '../../src/progress/progress.js';
import { groupKeyOf, migratedClaimId } from '../../src/job-files/migrate/group.js';
import { runMigrate } from '../../src/migrate/run-migrate.js';
import type { FaultAction, FaultInjector } from '../../src/sandbox/faults/fault-injector.js';
import { runCli } from '../helpers/cli.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { claimsWithCases, v1Case } from './fixtures.js';

/**
 * migrate-v1 when the service misbehaves: the sandbox's own fault seam, driven by a
 * script instead of a seeded random draw, so each test knows exactly which create goes wrong.
 */
function scriptedCreateFaults(actionFor: (call: number) => FaultAction) {
  const creates = { count: 0 };
  const faults: FaultInjector = {
    decide: (route) => {
      if (route.method !== 'POST' || route.pattern !== '/v2/issuer/claims') return { latencyMs: 0, action: 'none' };
      // Retry-After 0: the client's retries of a 503 take no time.
      return { latencyMs: 0, action: actionFor(creates.count++), retryAfterSeconds: 0 };
    },
  };
  return { faults, creates };
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-migrate-faults-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function resultsOf(file: string): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = parse(await readFile(file, 'utf8'), { columns: true });
  return rows;
}

const caseIds = (count: number) => Array.from({ length: count }, (_, index) => `f${index + 1}`);

describe('migrate-v1 under faults', () => {
  it(
    'settles a create whose answer was lost with a retrieve: adopted, never sent twice',
    { timeout: 60_000 },
    async () => {
      const { faults, creates } = scriptedCreateFaults((call) => (call === 0 ? 'drop-after-commit' : 'none'));
      const { sandbox, client } = await startTestSandbox({ faults });
      for (const id of caseIds(3)) await client.v1.cases.create(v1Case(id));
      const dir = await tempDir();
      const args = [
        'migrate-v1',
        '--base-url',
        sandbox.url,
        '--journal',
        join(dir, 'j.sqlite'),
        '--results',
        join(dir, 'r.csv'),
        '--concurrency',
        '1',
        '--log-level',
        'silent',
      ];

      const run = await runCli(args, { CLAIMS_API_KEY: sandboxKey });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).toContain('3 v1 cases = 3 migrated + 0 skipped + 0 failed + 0 rejected (3 claims)');
      // One create per claim: the dropped one was found by its id, not sent again.
      expect(creates.count).toBe(3);
      const claims = await claimsWithCases(client);
      expect([...claims.values()].flat().sort()).toEqual(caseIds(3));
      expect((await resultsOf(join(dir, 'r.csv'))).map((row) => row.outcome)).toEqual([
        'migrated',
        'migrated',
        'migrated',
      ]);
    },
  );

  it(
    'marks claims the service keeps failing (503) as failed, exit 1; the next run settles and migrates them',
    { timeout: 60_000 },
    async () => {
      let failing = true;
      const { faults, creates } = scriptedCreateFaults(() => (failing ? 'fail' : 'none'));
      const { sandbox, client } = await startTestSandbox({ faults });
      for (const id of caseIds(3)) await client.v1.cases.create(v1Case(id));
      const dir = await tempDir();
      const results = join(dir, 'r.csv');
      const args = [
        'migrate-v1',
        '--base-url',
        sandbox.url,
        '--journal',
        join(dir, 'j.sqlite'),
        '--results',
        results,
        '--log-level',
        'silent',
      ];

      const first = await runCli(args, { CLAIMS_API_KEY: sandboxKey });
      expect(first.exitCode, first.stderr).toBe(1);
      expect(first.stderr).toContain('3 v1 cases = 0 migrated + 0 skipped + 3 failed + 0 rejected');
      const failed = await resultsOf(results);
      expect(failed.map((row) => [row.outcome, row.http_status])).toEqual([
        ['failed', '503'],
        ['failed', '503'],
        ['failed', '503'],
      ]);
      expect(failed.every((row) => row.error_message !== '')).toBe(true);
      expect((await claimsWithCases(client)).size).toBe(0);
      const failedCreates = creates.count;

      failing = false;
      const second = await runCli(args, { CLAIMS_API_KEY: sandboxKey });
      expect(second.exitCode, second.stderr).toBe(0);
      expect(second.stderr).toContain('3 v1 cases = 3 migrated + 0 skipped + 0 failed + 0 rejected (3 claims)');
      expect(creates.count - failedCreates).toBe(3);
      expect([...(await claimsWithCases(client)).values()].flat().sort()).toEqual(caseIds(3));
    },
  );

  it(
    "stops with exit 3 once 10 claims fail on the service's side within a minute, all of those that ended; the rest are not started",
    { timeout: 60_000 },
    async () => {
      const { faults } = scriptedCreateFaults(() => 'fail');
      const { sandbox, client } = await startTestSandbox({ faults });
      for (const id of caseIds(12)) await client.v1.cases.create(v1Case(id));
      const dir = await tempDir();
      const results = join(dir, 'r.csv');
      const run = await runCli(
        [
          'migrate-v1',
          '--base-url',
          sandbox.url,
          '--journal',
          join(dir, 'j.sqlite'),
          '--results',
          results,
          '--concurrency',
          '1',
          '--log-level',
          'silent',
        ],
        { CLAIMS_API_KEY: sandboxKey },
      );

      expect(run.exitCode, run.stderr).toBe(3);
      expect(run.stderr).toContain('12 v1 cases = 0 migrated + 0 skipped + 12 failed + 0 rejected');
      expect(run.stderr).toContain('run the same command again to continue');
      const rows = await resultsOf(results);
      // 10, and the claims started while retries waited parked (each lends its place, up to three
      // times --concurrency more: rate-limits.md) and that failed in their turn.
      const failed = rows.filter((row) => row.http_status === '503').length;
      expect(failed).toBeGreaterThanOrEqual(10);
      expect(failed).toBeLessThanOrEqual(13);
      expect(rows.filter((row) => row.error_code === 'not_finished')).toHaveLength(12 - failed);
    },
  );

  it('adopts the claim a run whose journal was lost had made (409, found by its id)', { timeout: 60_000 }, async () => {
    const { faults, creates } = scriptedCreateFaults(() => 'none');
    const { sandbox, client } = await startTestSandbox({ faults });
    for (const id of caseIds(2)) await client.v1.cases.create(v1Case(id));
    // What a first run made before its journal was deleted: f1's claim, under the id we derive.
    const ours = migratedClaimId(groupKeyOf({ case_id: 'f1' }, []));
    await client.claims.create({ case_ids: ['f1'], claim_id: ours });
    creates.count = 0;
    const dir = await tempDir();
    const results = join(dir, 'r.csv');

    const run = await runCli(
      [
        'migrate-v1',
        '--base-url',
        sandbox.url,
        '--journal',
        join(dir, 'j.sqlite'),
        '--results',
        results,
        '--log-level',
        'silent',
      ],
      { CLAIMS_API_KEY: sandboxKey },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('2 v1 cases = 2 migrated + 0 skipped + 0 failed + 0 rejected (2 claims)');
    // Both creates were sent; f1's got 409 and the retrieve found our claim behind it.
    expect(creates.count).toBe(2);
    const rows = await resultsOf(results);
    expect(rows.map((row) => [row.case_id, row.claim_id, row.outcome]).sort()).toEqual([
      ['f1', ours, 'migrated'],
      ['f2', migratedClaimId(groupKeyOf({ case_id: 'f2' }, [])), 'migrated'],
    ]);
    const claims = await claimsWithCases(client);
    expect(claims.size).toBe(2);
    expect(claims.get(ours)).toEqual(['f1']);
  });

  it(
    'draws a progress bar on a terminal, ending at 100%, and clears it before the summary',
    { timeout: 60_000 },
    async () => {
      const { sandbox, client } = await startTestSandbox();
      for (const id of caseIds(3)) await client.v1.cases.create(v1Case(id));
      const dir = await tempDir();
      let drawn = '';
      const terminal = { isTTY: true, columns: 80, write: (text: string) => (drawn += text) };
      await runMigrate({
        service: { baseUrl: sandbox.url, apiKey: sandboxKey },
        journalFile: join(dir, 'j.sqlite'),
        resultsFile: join(dir, 'r.csv'),
        groupBy: [],
        dryRun: false,
        concurrency: 2,
        restart: false,
        logger: pino({ level: 'silent' }),
        progress: new Progress(terminal),
      });
      // 80 columns: the bar left out for the counts.
      expect(drawn).toContain('sending 3/3 claims 100%  elapsed 0.0s  ETA 0.0s  migrated 3');
      expect(drawn.endsWith('\r\u001b[2K')).toBe(true);
    },
  );
});
