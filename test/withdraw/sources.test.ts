import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { JournalBusyError, openLockedDatabase } from '../../src/journal/open.js';
import { readSources } from '../../src/withdraw/sources.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';
import { runCli } from '../import/e2e-fixtures.js';
import { v1Case } from '../migrate/fixtures.js';
import { claimsOf, created, importNight, importProof, night, nightSetup, refusal } from './source-fixtures.js';

/**
 * What `withdraw` reads from a job's journal (the import's, its shards', migrate-v1's): every
 * claim the job created, with the proof the run checks before taking it back (that the claim the
 * service holds under that key is still the job's own, not another dispute's).
 * The journals are the real import's and migrate-v1's, run against a sandbox server.
 */

describe("withdraw sources: an import's journal", () => {
  it(
    "names every claim the job created, with the proof of each case as sent; not the held back, nor another dispute's",
    { timeout: 60_000 },
    async () => {
      const setup = await nightSetup();
      const { journal } = await importNight(setup, 'night');

      const read = await readSources([journal], {});
      expect(claimsOf(read)).toEqual(created);
      expect(read.kinds).toEqual(['import-journal']);
      expect(read.services).toEqual([
        { file: journal, service: { kind: 'url', baseUrl: setup.testSandbox.sandbox.url, environment: 'test' } },
      ]);
      expect(read).toMatchObject({ workbook: false, skipped: [], unmatchedClaimKeys: [] });
      // The import's results dialect, which the withdrawal's results follow.
      expect(read.csvDialect).toMatchObject({ delimiter: ',', quote: '"' });

      const win = importProof(read.targets.find((target) => target.claimId === 'CLM-WIN'));
      expect(win.map((item) => [item.caseId, item.line, item.last4])).toEqual([
        ['WIN-T1', 4, '4417'],
        ['WIN-T2', 5, '4417'],
      ]);
      // The transaction as mapped and sent: what the ownership check compares with the claim the service holds.
      expect(win[1]?.transaction).toMatchObject({ amount: 84999, currency: 'USD', date: '2025-01-02T00:00:00.000Z' });
      expect(win[0]?.transaction.arn).toBe(night[2]?.arn);
    },
  );

  it(
    '--outcome narrows the cases and claims; claim keys narrow the claims, in any form the key is given',
    { timeout: 60_000 },
    async () => {
      const setup = await nightSetup();
      const { journal } = await importNight(setup, 'night');

      const filed = await readSources([journal], { outcomes: ['filed'] });
      expect(claimsOf(filed)).toEqual([
        ['CLM-GOOD', 'GOOD', ['GOOD-T1']],
        ['CLM-WIN', 'WIN', ['WIN-T1']],
        ['CLM-LATE', 'LATE', ['LATE-T1']],
      ]);
      // The proof keeps every case the claim was sent with, whatever the outcome named.
      expect(importProof(filed.targets[1]).map((item) => item.caseId)).toEqual(['WIN-T1', 'WIN-T2']);
      const notFiled = await readSources([journal], { outcomes: ['not_filed'] });
      expect(claimsOf(notFiled)).toEqual([
        ['CLM-DUP', 'DUP', ['DUP-T1']],
        ['CLM-WIN', 'WIN', ['WIN-T2']],
      ]);

      const keyed = await readSources([journal], { claimKeys: ['WIN', ' LATE ', '["GOOD"]', 'TAKEN', 'NOPE'] });
      expect(claimsOf(keyed)).toEqual([
        ['CLM-GOOD', 'GOOD', ['GOOD-T1']],
        ['CLM-WIN', 'WIN', ['WIN-T1', 'WIN-T2']],
        ['CLM-LATE', 'LATE', ['LATE-T1']],
      ]);
      // TAKEN is in the journal, but its claim is another dispute's: it names nothing to take back.
      expect(keyed.unmatchedClaimKeys).toEqual(['TAKEN', 'NOPE']);
      expect(claimsOf(await readSources([journal], { claimKeys: ['WIN'], outcomes: ['filed'] }))).toEqual([
        ['CLM-WIN', 'WIN', ['WIN-T1']],
      ]);

      expect(await refusal([journal], { outcomes: ['rejected'] })).toBe(
        '--outcome: expected one of filed, created, not_filed, failed, migrated (the outcomes of claims a job created), got "rejected"',
      );
    },
  );

  it(
    'a claim whose create may have committed unanswered is named for the run to settle; a claim never sent is not',
    { timeout: 60_000 },
    async () => {
      const setup = await nightSetup();
      const { journal } = await importNight(setup, 'night');
      const database = new Database(journal);
      // GOOD: its create left, no answer came (a crash, a lost connection). DUP: sent by a run before
      // a --restart, staged again since. LATE: staged, never sent (the run stopped before it).
      database.exec(`UPDATE claims SET step = 'submitting', sent = 1 WHERE claim_id = 'CLM-GOOD';
      UPDATE claims SET step = 'staged', sent = 0 WHERE claim_id IN ('CLM-DUP', 'CLM-LATE');
      DELETE FROM sent_claims WHERE claim_id = 'CLM-LATE';
      UPDATE rows SET outcome = NULL WHERE claim_key IN ('["GOOD"]', '["DUP"]', '["LATE"]')`);
      database.close();

      const read = await readSources([journal], {});
      expect(claimsOf(read)).toEqual([
        ['CLM-GOOD', 'GOOD', ['GOOD-T1']],
        ['CLM-DUP', 'DUP', ['DUP-T1']],
        ['CLM-WIN', 'WIN', ['WIN-T1', 'WIN-T2']],
      ]);
      // As the results would report them: failed (not finished).
      expect(claimsOf(await readSources([journal], { outcomes: ['failed'] }))).toEqual([
        ['CLM-GOOD', 'GOOD', ['GOOD-T1']],
        ['CLM-DUP', 'DUP', ['DUP-T1']],
      ]);
    },
  );

  it(
    "the journals of one import's shards (--shard i/n): merged, in the order given, each service told",
    { timeout: 60_000 },
    async () => {
      const setup = await nightSetup();
      const first = await importNight(setup, 'shard-1', { extra: ['--shard', '1/2'] });
      const second = await importNight(setup, 'shard-2', { extra: ['--shard', '2/2'] });
      const [one, two] = await Promise.all([readSources([first.journal], {}), readSources([second.journal], {})]);
      expect(one.targets.length).toBeGreaterThan(0);
      expect(two.targets.length).toBeGreaterThan(0);

      const read = await readSources([first.journal, second.journal], {});
      expect(claimsOf(read)).toEqual([...claimsOf(one), ...claimsOf(two)]);
      expect(claimsOf(read).sort()).toEqual([...created].map((claim) => [...claim]).sort());
      expect(read.kinds).toEqual(['import-journal', 'import-journal']);
      expect(read.services.map((item) => item.file)).toEqual([first.journal, second.journal]);
      // A journal named twice (a shell glob and a name) names each claim once.
      expect(claimsOf(await readSources([first.journal, first.journal], {}))).toEqual(claimsOf(one));
    },
  );

  it(
    'a journal a run is using is not read (JournalBusyError, exit 3): a job still running is not taken back',
    { timeout: 60_000 },
    async () => {
      const setup = await nightSetup();
      const { journal } = await importNight(setup, 'night');
      const held = openLockedDatabase(journal);
      try {
        await expect(readSources([journal], {})).rejects.toBeInstanceOf(JournalBusyError);
      } finally {
        held.close();
      }
      expect((await readSources([journal], {})).targets).toHaveLength(4);
    },
  );
});

describe('withdraw sources: a migrate-v1 journal and its results', () => {
  it(
    "names the claims the migration created with their group's cases (proof: the group); a case left in its own claim is not",
    { timeout: 60_000 },
    async () => {
      const { sandbox, client } = await startTestSandbox();
      const folder = await temporaryFolder('bulk-disputes-withdraw-');
      for (const [caseId, ref] of [
        ['m1', 'R1'],
        ['m2', 'R1'],
        ['m3', 'R3'],
        ['m4', 'R4'],
      ] as const)
        await client.v1.cases.create(v1Case(caseId, ref));
      await client.claims.create({ case_ids: ['m4'], claim_id: 'existing_claim' });
      const journal = join(folder, 'migrate.journal.sqlite');
      const results = join(folder, 'migrate.results.csv');
      const migrated = await runCli(
        [
          'migrate-v1',
          '--base-url',
          sandbox.url,
          '--journal',
          journal,
          '--results',
          results,
          '--group-by',
          'custom_fields.dispute_ref',
          '--log-level',
          'silent',
        ],
        { CLAIMS_API_KEY: sandboxKey },
      );
      expect(migrated.exitCode, migrated.stderr).toBe(0);

      const read = await readSources([journal], {});
      expect(read.kinds).toEqual(['migrate-journal']);
      expect(read.services[0]?.service).toEqual({ kind: 'url', baseUrl: sandbox.url, environment: 'test' });
      const byKey = new Map(read.targets.map((target) => [target.claimKey, target]));
      expect([...byKey.keys()].sort()).toEqual(['custom_fields.dispute_ref="R1"', 'custom_fields.dispute_ref="R3"']);
      const r1 = byKey.get('custom_fields.dispute_ref="R1"');
      expect(r1?.claimId).toMatch(/^mig_[0-9a-f]{24}$/);
      expect([...(r1?.caseIds ?? [])].sort()).toEqual(['m1', 'm2']);
      expect(r1?.proof).toEqual({ kind: 'migrate', caseIds: r1?.caseIds });
      expect(read.targets.flatMap((target) => target.caseIds)).not.toContain('m4');
      expect(
        await readSources([journal], {
          outcomes: ['failed'],
          claimKeys: ['custom_fields.dispute_ref="R1"', 'custom_fields.dispute_ref="R4"'],
        }),
      ).toMatchObject({ targets: [], unmatchedClaimKeys: ['custom_fields.dispute_ref="R4"'] });

      const fromResults = await readSources([results], {});
      expect(fromResults.kinds).toEqual(['results']);
      expect(fromResults.targets.map((target) => [target.claimId, [...target.caseIds].sort()])).toEqual(
        read.targets.map((target) => [target.claimId, [...target.caseIds].sort()]),
      );
      expect(fromResults.skipped.map((item) => item.reason)).toEqual([
        'outcome skipped: the case stayed in the claim it already had, not one the migration created',
      ]);
    },
  );
});
