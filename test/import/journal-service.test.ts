import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { claimIds, startServiceBehindDoor } from '../helpers/service-doors.js';
import { csvOf, fraudRow, genericMapping, makeWorkspace, readResults, runBin, type Workspace } from './e2e-fixtures.js';

/**
 * A journal belongs to the service it was made against. A rehearsal followed by the same command
 * against the real service must send every claim there, or refuse before sending anything; never
 * report the rehearsal's claims as filed. Real processes: the built CLI, sandbox processes,
 * requests counted at each service's door.
 */

const testKey = 'test_rehearsal_key_0001';
const liveKey = 'live_production_key_0001';
const rotatedLiveKey = 'live_production_key_0002';

/** 6 rows, 4 claims, filed as they are. */
async function exportIn(workspace: Workspace): Promise<string> {
  return workspace.write(
    'disputes.csv',
    csvOf([
      fraudRow('A', 'T1'),
      fraudRow('B', 'T1'),
      fraudRow('A', 'T2'),
      fraudRow('C', 'T1'),
      fraudRow('D', 'T1'),
      fraudRow('D', 'T2'),
    ]),
  );
}

/** `bulk-disputes import` as a user types it in the workspace: relative names, the key from the environment. */
async function importIn(workspace: Workspace, extra: readonly string[], env: NodeJS.ProcessEnv) {
  return runBin(
    [
      'import',
      'disputes.csv',
      '--mapping',
      genericMapping,
      '--evidence-dir',
      'evidence',
      '--log-level',
      'warn',
      ...extra,
    ],
    env,
    { cwd: workspace.dir },
  );
}

function metaOf(file: string, key: string): string | undefined {
  const database = new Database(file, { readonly: true });
  try {
    return (database.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  } finally {
    database.close();
  }
}

describe('a journal belongs to one service', () => {
  it(
    "a rehearsal's journal given to the real run: refused with exit 2 before a single request, naming both services and the ways out",
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      await exportIn(workspace);
      const rehearsal = await startServiceBehindDoor([testKey]);
      const production = await startServiceBehindDoor([liveKey]);

      const first = await importIn(workspace, ['--journal', 'disputes.journal.sqlite'], {
        CLAIMS_BASE_URL: rehearsal.url,
        CLAIMS_API_KEY: testKey,
      });
      expect(first.exitCode, first.stderr).toBe(0);
      expect(first.stderr).toContain(`import into ${rehearsal.url} (test key) finished: 6 rows, 4 claims`);
      const rehearsalRequests = rehearsal.door.total();
      expect(rehearsalRequests).toBeGreaterThanOrEqual(8);

      const real = await importIn(workspace, ['--journal', 'disputes.journal.sqlite'], {
        CLAIMS_BASE_URL: production.url,
        CLAIMS_API_KEY: liveKey,
      });
      expect(real.exitCode, real.stderr).toBe(2);
      expect(real.stderr).toContain('SERVICE_MISMATCH');
      expect(real.stderr).toContain(
        `expected a journal made against ${production.url} (live key), got one made against ${rehearsal.url} (test key)`,
      );
      expect(real.stderr).toMatch(/--journal FILE.*--restart/);
      expect(real.stderr).not.toContain(liveKey);
      expect(production.door.total()).toBe(0);
      expect(rehearsal.door.total()).toBe(rehearsalRequests);
      expect(await claimIds(production.client(liveKey))).toEqual([]);

      // The same address with the other environment's key is another service too.
      const otherEnvironment = await importIn(workspace, ['--journal', 'disputes.journal.sqlite'], {
        CLAIMS_BASE_URL: rehearsal.url,
        CLAIMS_API_KEY: 'live_not_configured',
      });
      expect(otherEnvironment.exitCode, otherEnvironment.stderr).toBe(2);
      expect(rehearsal.door.total()).toBe(rehearsalRequests);

      // --restart: the journal starts over for the real service, which gets every claim.
      const restarted = await importIn(workspace, ['--journal', 'disputes.journal.sqlite', '--restart'], {
        CLAIMS_BASE_URL: production.url,
        CLAIMS_API_KEY: liveKey,
      });
      expect(restarted.exitCode, restarted.stderr).toBe(0);
      expect(await claimIds(production.client(liveKey))).toEqual(await claimIds(rehearsal.client(testKey)));
      expect(await claimIds(production.client(liveKey))).toHaveLength(4);
    },
  );

  it(
    'the documented default names: a rehearsal into the embedded sandbox, then the real run sends every claim to the real service',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      await exportIn(workspace);
      const production = await startServiceBehindDoor([liveKey]);

      const rehearsal = await importIn(workspace, [], {});
      expect(rehearsal.exitCode, rehearsal.stderr).toBe(0);
      expect(rehearsal.stderr).toContain('import into the embedded sandbox finished: 6 rows, 4 claims');
      expect(rehearsal.stderr).toContain(`results: ${join(workspace.dir, 'disputes.sandbox.results.csv')}`);
      expect(existsSync(join(workspace.dir, 'disputes.sandbox.journal.sqlite'))).toBe(true);
      expect(existsSync(join(workspace.dir, 'disputes.journal.sqlite'))).toBe(false);

      const real = await importIn(workspace, [], { CLAIMS_BASE_URL: production.url, CLAIMS_API_KEY: liveKey });
      expect(real.exitCode, real.stderr).toBe(0);
      expect(real.stderr).toContain(`import into ${production.url} (live key) finished: 6 rows, 4 claims`);
      expect(real.stderr).toContain(`results: ${join(workspace.dir, 'disputes.results.csv')}`);
      expect(await claimIds(production.client(liveKey))).toHaveLength(4);
      expect(production.door.byStatus()[201] ?? 0).toBeGreaterThanOrEqual(4);
      const results = await readResults(join(workspace.dir, 'disputes.results.csv'));
      expect(results.rows.map((row) => row.outcome)).toEqual(Array(6).fill('filed'));
      expect(results.rows.map((row) => row.attempts)).toEqual(Array(6).fill('1'));

      // Each journal reports the service it belongs to.
      const reported = await runBin(['report', 'disputes.sandbox.journal.sqlite'], {}, { cwd: workspace.dir });
      expect(reported.stdout).toContain(
        `service: the embedded sandbox at ${join(workspace.dir, 'sandbox.db')} (test key)`,
      );
      const both = await runBin(
        ['report', 'disputes.sandbox.journal.sqlite', 'disputes.journal.sqlite'],
        {},
        { cwd: workspace.dir },
      );
      expect(both.stdout).toContain('services (these journals belong to different services): ');
      expect(both.stdout).toContain(`disputes.journal.sqlite: ${production.url} (live key)`);
    },
  );

  it(
    'a rotated key of the same environment, and the same address written differently, resume as before',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      await exportIn(workspace);
      // Filing fails on the service's side in the first run: it ends with created claims still to file.
      const production = await startServiceBehindDoor(
        [liveKey, rotatedLiveKey],
        [
          '--control',
          '--fail-rate',
          '1',
          '--retry-after-seconds',
          '0',
          '--fault-route',
          'POST /v2/issuer/claims/{claim_id}/file',
        ],
      );
      const first = await importIn(workspace, [], { CLAIMS_BASE_URL: production.url, CLAIMS_API_KEY: liveKey });
      expect(first.exitCode, first.stderr).toBe(1);
      const created = await claimIds(production.client(liveKey));
      expect(created).toHaveLength(4);
      const creates = production.door.byStatus()[201];
      const faultsOff = await fetch(`${production.url}/_sandbox/faults`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${liveKey}:`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: '{}',
      });
      expect(faultsOff.status).toBe(200);

      const rotated = await importIn(workspace, [], {
        CLAIMS_BASE_URL: `${production.url.replace('http://', 'HTTP://')}/`,
        CLAIMS_API_KEY: rotatedLiveKey,
      });
      expect(rotated.exitCode, rotated.stderr).toBe(0);
      expect(rotated.stderr).toContain('6 rows, 4 claims');
      // Resumed: the claims were filed, none created again.
      expect(production.door.byStatus()[201]).toBe(creates);
      expect(await claimIds(production.client(rotatedLiveKey))).toEqual(created);
      const results = await readResults(join(workspace.dir, 'disputes.results.csv'));
      expect(results.rows.map((row) => row.outcome)).toEqual(Array(6).fill('filed'));
    },
  );

  it(
    'a journal made before services were recorded: accepted once for the service it is run against, then recorded',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      await exportIn(workspace);
      const production = await startServiceBehindDoor([liveKey]);
      const other = await startServiceBehindDoor([liveKey]);
      const env = { CLAIMS_BASE_URL: production.url, CLAIMS_API_KEY: liveKey };
      const journal = join(workspace.dir, 'disputes.journal.sqlite');
      expect((await importIn(workspace, [], env)).exitCode).toBe(0);
      // What this version's journals held: no service row.
      const database = new Database(journal);
      database.prepare("DELETE FROM meta WHERE key = 'service'").run();
      database.close();
      const unrecorded = await runBin(['report', journal], {});
      expect(unrecorded.stdout).toContain(
        'service: not recorded (a journal made before journals recorded their service)',
      );

      const before = production.door.total();
      const accepted = await importIn(workspace, [], env);
      expect(accepted.exitCode, accepted.stderr).toBe(0);
      expect(accepted.stderr).toContain(
        `records no service (made before journals recorded one): taken as made against ${production.url} (live key) from now on`,
      );
      expect(production.door.total()).toBe(before);
      expect(JSON.parse(metaOf(journal, 'service') ?? '{}')).toEqual({
        kind: 'url',
        baseUrl: production.url,
        environment: 'live',
      });

      const again = await importIn(workspace, [], env);
      expect(again.stderr).not.toContain('records no service');
      const elsewhere = await importIn(workspace, [], { ...env, CLAIMS_BASE_URL: other.url });
      expect(elsewhere.exitCode, elsewhere.stderr).toBe(2);
      expect(other.door.total()).toBe(0);
    },
  );

  it(
    "feed-back: the rehearsal's results CSV fed to the real service is sent there, claim by claim; with the rehearsal's journal it is refused",
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      await exportIn(workspace);
      const rehearsal = await startServiceBehindDoor([testKey]);
      const production = await startServiceBehindDoor([liveKey]);
      const first = await importIn(
        workspace,
        ['--journal', 'rehearsal.journal.sqlite', '--results', 'rehearsal.results.csv'],
        { CLAIMS_BASE_URL: rehearsal.url, CLAIMS_API_KEY: testKey },
      );
      expect(first.exitCode, first.stderr).toBe(0);
      const feedBack = async (journal: string) =>
        runBin(
          [
            'import',
            'rehearsal.results.csv',
            '--mapping',
            genericMapping,
            '--evidence-dir',
            'evidence',
            '--journal',
            journal,
            '--results',
            'fed.results.csv',
            '--log-level',
            'warn',
          ],
          { CLAIMS_BASE_URL: production.url, CLAIMS_API_KEY: liveKey },
          { cwd: workspace.dir },
        );

      const refused = await feedBack('rehearsal.journal.sqlite');
      expect(refused.exitCode, refused.stderr).toBe(2);
      expect(refused.stderr).toContain('SERVICE_MISMATCH');
      expect(production.door.total()).toBe(0);

      // A new journal: the rows the rehearsal filed are looked up at the real service, not found, and sent.
      const fed = await feedBack('fed.journal.sqlite');
      expect(fed.exitCode, fed.stderr).toBe(0);
      expect(await claimIds(production.client(liveKey))).toEqual(await claimIds(rehearsal.client(testKey)));
      const results = await readResults(join(workspace.dir, 'fed.results.csv'));
      expect(results.rows.map((row) => row.outcome)).toEqual(Array(6).fill('filed'));
    },
  );

  it(
    'merge-results refuses the shards of one input made against two services, naming both',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      await exportIn(workspace);
      const rehearsal = await startServiceBehindDoor([testKey]);
      const production = await startServiceBehindDoor([liveKey]);
      const shard = async (index: number, env: NodeJS.ProcessEnv) => {
        const run = await importIn(workspace, ['--shard', `${index}/2`], env);
        expect(run.exitCode, run.stderr).toBe(0);
      };
      await shard(1, { CLAIMS_BASE_URL: rehearsal.url, CLAIMS_API_KEY: testKey });
      await shard(2, { CLAIMS_BASE_URL: production.url, CLAIMS_API_KEY: liveKey });
      const merge = await runBin(
        [
          'merge-results',
          '--out',
          'merged.results.csv',
          'disputes.shard-1-of-2.journal.sqlite',
          'disputes.shard-2-of-2.journal.sqlite',
        ],
        {},
        { cwd: workspace.dir },
      );
      expect(merge.exitCode, merge.stderr).toBe(2);
      expect(merge.stderr).toContain(
        `disputes.shard-2-of-2.journal.sqlite: expected shards of one service, got one made against ${production.url} (live key) and one against ${rehearsal.url} (test key)`,
      );
      expect(existsSync(join(workspace.dir, 'merged.results.csv'))).toBe(false);

      // Shard 1 started over for the real service: the merge goes through.
      const again = await importIn(workspace, ['--shard', '1/2', '--restart'], {
        CLAIMS_BASE_URL: production.url,
        CLAIMS_API_KEY: liveKey,
      });
      expect(again.exitCode, again.stderr).toBe(0);
      const merged = await runBin(
        [
          'merge-results',
          '--out',
          'merged.results.csv',
          'disputes.shard-1-of-2.journal.sqlite',
          'disputes.shard-2-of-2.journal.sqlite',
        ],
        {},
        { cwd: workspace.dir },
      );
      expect(merged.exitCode, merged.stderr).toBe(0);
      expect(merged.stderr).toContain('merged 2 of 2 shards: 6 rows (filed 6)');
      expect(await claimIds(production.client(liveKey))).toHaveLength(4);
    },
  );
});
