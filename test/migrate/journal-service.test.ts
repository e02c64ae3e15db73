import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClaimsClient } from '../../src/api/client/index.js';
import { createSandbox } from '../../src/sandbox/server.js';
import { runBin } from '../helpers/cli.js';
import { claimIds, startServiceBehindDoor } from '../helpers/service-doors.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';
import { inPool, v1Case } from './fixtures.js';

/**
 * A journal belongs to its service, for migrate-v1: a migration rehearsed against a test sandbox
 * and then run against a second service holding the same 30 v1 cases with a live key. Real
 * processes; requests counted at each service's door.
 */

const testKey = 'test_migration_rehearsal_01';
const liveKey = 'live_migration_key_0001';
const caseIds = Array.from({ length: 30 }, (_, index) => `v1-case-${String(index + 1).padStart(2, '0')}`);

async function seedV1Cases(client: ClaimsClient): Promise<void> {
  await inPool(caseIds, 8, async (caseId) => client.v1.cases.create(v1Case(caseId)));
}

async function migrateIn(folder: string, extra: readonly string[], env: NodeJS.ProcessEnv) {
  return runBin(['migrate-v1', '--log-level', 'warn', ...extra], env, { cwd: folder });
}

describe('migrate-v1: a journal belongs to one service', () => {
  it(
    "the rehearsal's journal against the live service: exit 2 before a request; with the default names every case migrates there",
    { timeout: 90_000 },
    async () => {
      const folder = await temporaryFolder('bulk-disputes-migrate-service-');
      const rehearsal = await startServiceBehindDoor([testKey]);
      const production = await startServiceBehindDoor([liveKey]);
      await seedV1Cases(rehearsal.client(testKey));
      await seedV1Cases(production.client(liveKey));

      const first = await migrateIn(folder, ['--journal', 'migration.journal.sqlite'], {
        CLAIMS_BASE_URL: rehearsal.url,
        CLAIMS_API_KEY: testKey,
      });
      expect(first.exitCode, first.stderr).toBe(0);
      expect(first.stderr).toContain(
        'migrate-v1 finished: 30 v1 cases = 30 migrated + 0 skipped + 0 failed + 0 rejected (30 claims)',
      );
      expect(first.stderr).toContain(`service: ${rehearsal.url} (test key)`);
      const rehearsalRequests = rehearsal.door.total();

      const refused = await migrateIn(folder, ['--journal', 'migration.journal.sqlite'], {
        CLAIMS_BASE_URL: production.url,
        CLAIMS_API_KEY: liveKey,
      });
      expect(refused.exitCode, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(
        `expected a journal made against ${production.url} (live key), got one made against ${rehearsal.url} (test key)`,
      );
      expect(refused.stderr).toMatch(/--journal FILE.*--restart/);
      expect(production.door.total()).toBe(0);
      expect(rehearsal.door.total()).toBe(rehearsalRequests);
      expect(await claimIds(production.client(liveKey))).toEqual([]);

      // --restart starts it over for the live service: its 30 cases become 30 claims.
      const restarted = await migrateIn(folder, ['--journal', 'migration.journal.sqlite', '--restart'], {
        CLAIMS_BASE_URL: production.url,
        CLAIMS_API_KEY: liveKey,
      });
      expect(restarted.exitCode, restarted.stderr).toBe(0);
      expect(restarted.stderr).toContain('= 30 migrated + 0 skipped');
      expect(await claimIds(production.client(liveKey))).toHaveLength(30);
    },
  );

  it(
    'a rehearsal into the embedded sandbox writes migrate-v1.sandbox.*; the real run after it, with the default names, migrates every case',
    { timeout: 90_000 },
    async () => {
      const folder = await temporaryFolder('bulk-disputes-migrate-service-');
      // The embedded sandbox's data file, holding the v1 cases to rehearse with.
      const seeded = await createSandbox({ db: join(folder, 'sandbox.db'), apiKeys: [testKey] });
      const seeder = new ClaimsClient({ baseUrl: seeded.url, apiKey: testKey });
      await seedV1Cases(seeder);
      await seeder.close();
      await seeded.close();
      const production = await startServiceBehindDoor([liveKey]);
      await seedV1Cases(production.client(liveKey));

      const rehearsal = await migrateIn(folder, [], { CLAIMS_API_KEY: testKey });
      expect(rehearsal.exitCode, rehearsal.stderr).toBe(0);
      expect(rehearsal.stderr).toContain('= 30 migrated');
      expect(rehearsal.stderr).toContain(`service: the embedded sandbox at ${join(folder, 'sandbox.db')} (test key)`);
      expect(existsSync(join(folder, 'migrate-v1.sandbox.journal.sqlite'))).toBe(true);
      expect(existsSync(join(folder, 'migrate-v1.sandbox.results.csv'))).toBe(true);
      expect(existsSync(join(folder, 'migrate-v1.journal.sqlite'))).toBe(false);

      const real = await migrateIn(folder, [], { CLAIMS_BASE_URL: production.url, CLAIMS_API_KEY: liveKey });
      expect(real.exitCode, real.stderr).toBe(0);
      expect(real.stderr).toContain(
        'migrate-v1 finished: 30 v1 cases = 30 migrated + 0 skipped + 0 failed + 0 rejected (30 claims)',
      );
      expect(real.stderr).toContain(`results: ${join(folder, 'migrate-v1.results.csv')}`);
      expect(await claimIds(production.client(liveKey))).toHaveLength(30);
    },
  );
});
