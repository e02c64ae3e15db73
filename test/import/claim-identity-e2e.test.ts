import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimIds, startServiceBehindDoor, type ServiceBehindDoor } from '../helpers/service-doors.js';
import {
  csvOf,
  daysAgo,
  editedMapping,
  fraudRow,
  genericMapping,
  makeWorkspace,
  readResults,
  resultsCsv,
  runBin,
  type GenericRow,
  type ResultRow,
  type Workspace,
} from './e2e-fixtures.js';

/**
 * A claim found under our id is ours only when it holds our rows' transactions (docs/import.md,
 * "Never a row on a claim that is not its own"). Two exports whose claim keys overlap (references
 * that restart, two platforms after a merger), imported one after the other into one sandbox
 * process, each with its own journal: nothing of the second is reported on the first's claims, and
 * the first's claims are left as they are. The same file again with a lost journal adopts every
 * claim and creates none; a feed-back that corrects a transaction's amount is still recognised as
 * ours.
 */

const liveKey = 'live_identity_key_0001';
const env = (url: string) => ({ CLAIMS_BASE_URL: url, CLAIMS_API_KEY: liveKey });

async function importIn(
  workspace: Workspace,
  input: string,
  journal: string,
  results: string,
  service: ServiceBehindDoor,
  extra: readonly string[] = [],
  mapping = genericMapping,
) {
  return runBin(
    [
      'import',
      input,
      '--mapping',
      mapping,
      '--evidence-dir',
      'evidence',
      '--journal',
      journal,
      '--results',
      results,
      '--log-level',
      'warn',
      ...extra,
    ],
    env(service.url),
    { cwd: workspace.dir },
  );
}

/** The first platform's export: ten claims, the first three with two transactions each. */
function firstExport(): GenericRow[] {
  const rows: GenericRow[] = [];
  for (let claim = 1; claim <= 10; claim++) {
    rows.push(
      fraudRow(`R-${claim}`, 'T1', { transaction_amount: `${100 + claim}.00`, disputed_amount: `${100 + claim}.00` }),
    );
    if (claim <= 3)
      rows.push(
        fraudRow(`R-${claim}`, 'T2', { transaction_amount: `${200 + claim}.00`, disputed_amount: `${200 + claim}.00` }),
      );
  }
  return rows;
}

/**
 * The second platform's export: the same references R-1..R-6 for other disputes (another
 * cardholder, card, amount, ARN and date), R-2 with a third transaction, and four keys of its own.
 */
function secondExport(): GenericRow[] {
  const other = (ref: string, transaction: string): GenericRow =>
    fraudRow(ref, transaction, {
      cardholder_name: 'Jonas Okafor',
      cardholder_email: 'jonas@example.com',
      card_last4: '8120',
      transaction_amount: '57.30',
      disputed_amount: '57.30',
      transaction_date: daysAgo(20),
    });
  const rows = [1, 2, 3, 4, 5, 6].map((claim) => other(`R-${claim}`, 'T1'));
  rows.push(other('R-2', 'T2'), other('R-2', 'T3'));
  for (const ref of ['S-1', 'S-2', 'S-3', 'S-4']) rows.push(other(ref, 'T1'));
  return rows;
}

/** What the door saw sent (not read) for one claim or its cases. */
const writesFor = (service: ServiceBehindDoor, from: number, claimId: string, caseIds: readonly string[]) =>
  service.door
    .requests()
    .slice(from)
    .filter(
      (request) =>
        !request.startsWith('GET ') &&
        [claimId, ...caseIds].some((id) => request.includes(`/${id}/`) || request.endsWith(`/${id}`)),
    );

describe('a claim found under our id is adopted only when it holds our transactions', () => {
  it(
    "two exports with overlapping keys: no row of the second reported on the first's claims, each refused as claim_key_taken; the first file again with a new journal: every claim adopted, none created",
    { timeout: 120_000 },
    async () => {
      const workspace = await makeWorkspace();
      const service = await startServiceBehindDoor([liveKey]);
      const reader = service.client(liveKey);
      await workspace.write('first.csv', csvOf(firstExport()));
      await workspace.write('second.csv', csvOf(secondExport()));

      const first = await importIn(workspace, 'first.csv', 'first.journal.sqlite', 'first.results.csv', service);
      expect(first.exitCode, first.stderr).toBe(0);
      const claimsAfterFirst = await claimIds(reader);
      expect(claimsAfterFirst).toHaveLength(10);
      const heldBefore = await reader.claims.retrieve('CLM-R-2');

      const doorBefore = service.door.requests().length;
      const second = await importIn(workspace, 'second.csv', 'second.journal.sqlite', 'second.results.csv', service);
      expect(second.exitCode, second.stderr).toBe(1);
      const results = await readResults(join(workspace.dir, 'second.results.csv'));
      const overlapping = results.rows.filter((row) => /^R-/.test(row.dispute_ref ?? ''));
      expect(overlapping).toHaveLength(8);
      // The guarantee: not one row of the second file reported filed, created or not_filed on the first file's claims.
      expect(overlapping.map((row) => [row.dispute_ref, row.outcome, row.error_code])).toEqual(
        overlapping.map((row) => [row.dispute_ref, 'rejected', 'claim_key_taken']),
      );
      const lineOfR1 = overlapping.find((row) => row.dispute_ref === 'R-1');
      expect(lineOfR1?.error_message).toContain('claim CLM-R-1 at the service is another dispute under this claim key');
      expect(lineOfR1?.error_message).toMatch(
        /differs in case\.transaction\.arn, case\.transaction\.amount, case\.transaction\.date, shared\.card\.last4/,
      );
      expect(lineOfR1?.error_message).toContain('claim.id_prefix');
      // The row whose case the first claim lacks says so, within the same refusal.
      expect(overlapping.find((row) => row.case_id === 'R-2-T3')?.error_message).toContain('it holds no case R-2-T3');
      // The second file's own keys went through.
      expect(results.rows.filter((row) => /^S-/.test(row.dispute_ref ?? '')).map((row) => row.outcome)).toEqual([
        'filed',
        'filed',
        'filed',
        'filed',
      ]);
      // The first file's claims are left as they were: no update, no filing, no withdrawal.
      for (let claim = 1; claim <= 6; claim++) {
        const claimId = `CLM-R-${claim}`;
        expect(
          writesFor(service, doorBefore, claimId, [`R-${claim}-T1`, `R-${claim}-T2`]).filter(
            (request) => !request.startsWith('POST /v2/issuer/new_claim'),
          ),
        ).toEqual([]);
      }
      expect((await reader.claims.retrieve('CLM-R-2')).data).toEqual(heldBefore.data);
      expect(await claimIds(reader)).toHaveLength(14);

      // The report counts them and says what to do.
      const report = await runBin(['report', 'second.results.csv'], {}, { cwd: workspace.dir });
      expect(report.stdout).toMatch(/claim_key_taken \(8\)/);
      expect(report.stdout).toContain('claim.id_prefix');

      // A lost journal: the first file again, with a new one. Every claim is the first file's own.
      const again = await importIn(
        workspace,
        'first.csv',
        'first-again.journal.sqlite',
        'first-again.results.csv',
        service,
      );
      expect(again.exitCode, again.stderr).toBe(0);
      const adopted = await readResults(join(workspace.dir, 'first-again.results.csv'));
      expect(adopted.rows.map((row) => row.outcome)).toEqual(Array(13).fill('filed'));
      expect(await claimIds(reader)).toHaveLength(14);
    },
  );

  it(
    "a feed-back that corrects a transaction's amount is still its own claim: adopted, the case updated and filed",
    { timeout: 90_000 },
    async () => {
      const workspace = await makeWorkspace();
      const service = await startServiceBehindDoor([liveKey]);
      const reader = service.client(liveKey);
      // Not filed: the card is still active, so the fraud claim waits for its fix.
      await workspace.write(
        'disputes.csv',
        csvOf([
          fraudRow('F-1', 'T1', { card_active: 'yes', transaction_amount: '84.99', disputed_amount: '84.99' }),
          fraudRow('F-2', 'T1'),
        ]),
      );
      const first = await importIn(workspace, 'disputes.csv', 'first.journal.sqlite', 'first.results.csv', service);
      expect(first.exitCode, first.stderr).toBe(1);
      const results = await readResults(join(workspace.dir, 'first.results.csv'));
      expect(results.rows.map((row) => row.outcome)).toEqual(['not_filed', 'filed']);

      // The reviewer corrects the amount (a decimal slip) and cancels the card, and feeds it back.
      const fixed = results.rows.map((row): ResultRow =>
        row.dispute_ref === 'F-1'
          ? { ...row, transaction_amount: '849.90', disputed_amount: '849.90', card_active: 'no' }
          : row,
      );
      await writeFile(join(workspace.dir, 'fixed.csv'), resultsCsv(results, fixed));
      const fed = await importIn(workspace, 'fixed.csv', 'fixed.journal.sqlite', 'fixed.results.csv', service);
      expect(fed.exitCode, fed.stderr).toBe(0);
      const after = await readResults(join(workspace.dir, 'fixed.results.csv'));
      expect(after.rows.map((row) => [row.dispute_ref, row.outcome])).toEqual([
        ['F-1', 'filed'],
        ['F-2', 'filed'],
      ]);
      expect(after.rows[0]?.changed_fields).toContain('case.transaction.amount');
      const held = (await reader.claims.retrieve('CLM-F-1')).data;
      expect(held.cases?.[0]?.transaction?.amount).toBe(84_990);

      // The corrected file fed back again, with a new journal: the service now agrees with it.
      const again = await importIn(workspace, 'fixed.csv', 'again.journal.sqlite', 'again.results.csv', service);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(await claimIds(reader)).toEqual(['CLM-F-1', 'CLM-F-2']);
    },
  );

  it(
    "claim.id_prefix keeps two platforms apart: the second export files whole; the first's results fed back through the prefixed mapping are held back, never sent as second claims",
    { timeout: 90_000 },
    async () => {
      const workspace = await makeWorkspace();
      const service = await startServiceBehindDoor([liveKey]);
      const reader = service.client(liveKey);
      await workspace.write('first.csv', csvOf(firstExport()));
      await workspace.write('second.csv', csvOf(secondExport()));
      const first = await importIn(workspace, 'first.csv', 'first.journal.sqlite', 'first.results.csv', service);
      expect(first.exitCode, first.stderr).toBe(0);

      const prefixed = await editedMapping(workspace, (mapping) => {
        (mapping.claim as Record<string, unknown>).id_prefix = 'platform-b';
      });
      const second = await importIn(
        workspace,
        'second.csv',
        'second.journal.sqlite',
        'second.results.csv',
        service,
        [],
        prefixed,
      );
      expect(second.exitCode, second.stderr).toBe(0);
      const results = await readResults(join(workspace.dir, 'second.results.csv'));
      expect(new Set(results.rows.map((row) => row.outcome))).toEqual(new Set(['filed']));
      expect(results.rows.find((row) => row.dispute_ref === 'R-1')?.claim_id).toBe('platform-b-CLM-R-1');
      expect(await claimIds(reader)).toHaveLength(20);

      // The first platform's results, fed back through the prefixed mapping by mistake: every row
      // maps to another claim id than the one it was filed on; held back, nothing sent.
      const doorBefore = service.door.requests().length;
      const mixedUp = await importIn(
        workspace,
        'first.results.csv',
        'mixed-up.journal.sqlite',
        'mixed-up.results.csv',
        service,
        [],
        prefixed,
      );
      expect(mixedUp.exitCode, mixedUp.stderr).toBe(1);
      const held = await readResults(join(workspace.dir, 'mixed-up.results.csv'));
      expect(new Set(held.rows.map((row) => `${row.outcome} ${row.error_code}`))).toEqual(
        new Set(['invalid claim_id_changed']),
      );
      expect(held.rows[0]?.error_message).toContain(
        'claim id: expected CLM-R-1, the claim the results reported this row on, got platform-b-CLM-R-1',
      );
      expect(service.door.requests().slice(doorBefore)).toEqual([]);
      expect(await claimIds(reader)).toHaveLength(20);
    },
  );
});
