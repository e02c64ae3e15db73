import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { ClaimsClient } from '../../src/api/client/index.js';
import { migratedClaimId } from '../../src/job-files/migrate/group.js';
import { runBin } from '../helpers/cli.js';
import { testApiKey } from '../helpers/client.js';
import { fraudClaim } from '../helpers/sandbox.js';
import { startServiceBehindDoor } from '../helpers/service-doors.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';
import { claimsWithCases, v1Case } from './fixtures.js';

/**
 * claim_key_taken, migrate-v1: a claim already at the service under the id the migration derives for a
 * group, made of other cases, is not adopted. The group is refused (rejected, claim_key_taken),
 * the claim left as it is, every other group migrated; the same command again sends nothing.
 * A sandbox process behind a counting door, the built CLI.
 */

const caseIds = Array.from({ length: 8 }, (_, index) => `v1-key-${String(index + 1).padStart(2, '0')}`);
const [, v1Two, , v1Four, v1Five, v1Six, v1Seven] = caseIds as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
/** The claim id the migration derives for a case alone (group key `case="<case_id>"`). */
const aloneId = (caseId: string) => migratedClaimId(`case=${JSON.stringify(caseId)}`);

/** Three claims under groups' ids, made before the migration, each of cases other than (or besides) the group's. */
const takenBy = {
  /** v1-02's id, a new claim of two fresh v2 cases (outside the migration's v1 cases). */
  newCases: {
    group: v1Two,
    claimId: aloneId(v1Two),
    foreign: [`${aloneId(v1Two)}-case-1`, `${aloneId(v1Two)}-case-2`],
  },
  /** v1-04's id, a claim of v1-05 (a case of another group, skipped by the migration). */
  otherV1Case: { group: v1Four, claimId: aloneId(v1Four), foreign: [v1Five] },
  /** v1-06's id, a claim of v1-06 and v1-07: the group's case, and a foreign one with it. */
  oursAndForeign: { group: v1Six, claimId: aloneId(v1Six), foreign: [v1Seven] },
};
const refusedGroups = new Set(Object.values(takenBy).map((taken) => taken.group));
const skippedCases = new Map([
  [v1Five, takenBy.otherV1Case.claimId],
  [v1Seven, takenBy.oursAndForeign.claimId],
]);

/** Claims and their case ids, both sorted: a map compared whole. */
function sorted(map: ReadonlyMap<string, readonly string[]>): Record<string, string[]> {
  const entries = [...map].map(([claimId, cases]): [string, string[]] => [claimId, [...cases].sort()]);
  return Object.fromEntries(entries.sort(([left], [right]) => left.localeCompare(right)));
}

async function retrieveAll(client: ClaimsClient, claimIds: readonly string[]): Promise<unknown[]> {
  return Promise.all(claimIds.map(async (claimId) => (await client.claims.retrieve(claimId)).data));
}

describe("migrate-v1: a claim under a group's id made of other cases", () => {
  it(
    'refuses the group as claim_key_taken, leaves the claim as it is, migrates the rest; run again, sends nothing',
    { timeout: 90_000 },
    async () => {
      const folder = await temporaryFolder('bulk-disputes-migrate-key-taken-');
      const service = await startServiceBehindDoor([testApiKey]);
      const reader = service.client(testApiKey);
      for (const caseId of caseIds) await reader.v1.cases.create(v1Case(caseId));
      await reader.claims.createWithCases(fraudClaim(takenBy.newCases.claimId, 2));
      await reader.claims.create({ claim_id: takenBy.otherV1Case.claimId, case_ids: [v1Five] });
      await reader.claims.create({ claim_id: takenBy.oursAndForeign.claimId, case_ids: [v1Six, v1Seven] });
      const takenIds = Object.values(takenBy).map((taken) => taken.claimId);
      const takenBefore = await retrieveAll(reader, takenIds);
      expect((takenBefore[0] as { cases: { case_id: string }[] }).cases.map((item) => item.case_id)).toEqual(
        takenBy.newCases.foreign,
      );

      const results = join(folder, 'migrate.results.csv');
      const args = [
        'migrate-v1',
        '--journal',
        join(folder, 'migrate.journal.sqlite'),
        '--results',
        results,
        '--concurrency',
        '2',
        '--log-level',
        'warn',
      ];
      const env = { CLAIMS_BASE_URL: service.url, CLAIMS_API_KEY: testApiKey };

      const first = await runBin(args, env);
      expect(first.exitCode, first.stderr).toBe(1);
      expect(first.stderr).toContain(
        'migrate-v1 finished: 8 v1 cases = 3 migrated + 2 skipped + 0 failed + 3 rejected (6 claims)',
      );
      // One create per group that was not skipped, the refused ones included: none sent twice.
      const firstRequests = service.door.requests();
      expect(firstRequests.filter((request) => request === 'POST /v2/issuer/claims')).toHaveLength(6);
      // Nothing but the creates written; the taken claims only read.
      expect(
        firstRequests.filter((request) => !request.startsWith('GET ') && request !== 'POST /v2/issuer/claims'),
      ).toEqual([]);

      const rows: Record<string, string>[] = parse(await readFile(results, 'utf8'), { columns: true });
      // Every case once (in the listing's order, newest first at the sandbox).
      expect(rows.map((row) => row.case_id).sort()).toEqual(caseIds);
      for (const row of rows) {
        const caseId = row.case_id ?? '';
        const taken = Object.values(takenBy).find((item) => item.group === caseId);
        if (taken !== undefined) {
          expect([row.outcome, row.error_code, row.http_status, row.claim_id], caseId).toEqual([
            'rejected',
            'claim_key_taken',
            '409',
            taken.claimId,
          ]);
          expect(row.error_message, caseId).toContain(`claim ${taken.claimId}`);
          for (const foreign of taken.foreign) expect(row.error_message, caseId).toContain(foreign);
        } else if (skippedCases.has(caseId)) {
          expect([row.outcome, row.claim_id], caseId).toEqual(['skipped', skippedCases.get(caseId)]);
        } else {
          expect([row.outcome, row.error_code, row.claim_id], caseId).toEqual(['migrated', '', aloneId(caseId)]);
        }
      }

      // At the service: the taken claims as they were; each migrated case alone in its claim; the
      // refused groups' cases where they were (v1-02 and v1-04 in no claim, v1-06 in the taken one).
      expect(await retrieveAll(reader, takenIds)).toEqual(takenBefore);
      const claims = await claimsWithCases(reader);
      const expected = new Map<string, string[]>([
        [takenBy.newCases.claimId, takenBy.newCases.foreign],
        [takenBy.otherV1Case.claimId, [v1Five]],
        [takenBy.oursAndForeign.claimId, [v1Six, v1Seven]],
      ]);
      for (const caseId of caseIds)
        if (!refusedGroups.has(caseId) && !skippedCases.has(caseId)) expected.set(aloneId(caseId), [caseId]);
      expect(sorted(claims)).toEqual(sorted(expected));
      const owned = new Set([...claims.values()].flat());
      expect([v1Two, v1Four].filter((caseId) => owned.has(caseId))).toEqual([]);

      // The same command again: the journal's refusals stand; nothing sent but reads, nothing changed.
      const resultsBefore = await readFile(results, 'utf8');
      const from = service.door.requests().length;
      const second = await runBin(args, env);
      expect(second.exitCode, second.stderr).toBe(1);
      expect(second.stderr).toContain(
        'migrate-v1 finished: 8 v1 cases = 3 migrated + 2 skipped + 0 failed + 3 rejected (6 claims)',
      );
      expect(
        service.door
          .requests()
          .slice(from)
          .filter((request) => !request.startsWith('GET ')),
      ).toEqual([]);
      expect(await readFile(results, 'utf8')).toBe(resultsBefore);
      expect(await retrieveAll(reader, takenIds)).toEqual(takenBefore);
      expect(sorted(await claimsWithCases(reader))).toEqual(sorted(expected));
    },
  );
});
