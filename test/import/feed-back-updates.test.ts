import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServiceBehindDoor } from '../helpers/service-doors.js';
import {
  csvOf,
  duplicateChargeRow,
  fraudRow,
  genericMapping,
  makeWorkspace,
  readResults,
  resultsCsv,
  runBin,
  type ResultRow,
  type Workspace,
} from './e2e-fixtures.js';

/**
 * Fixes fed back for claims the service created but would not file reach the service.
 * The measured case: fraud claims refused because the card was not cancelled, and a duplicate
 * charge without its receipt, fixed in the results CSV as a reviewer would and fed back. A real
 * sandbox process; every request counted at its door, route by route.
 */

const liveKey = 'live_feed_back_key_0001';
const env = (url: string) => ({ CLAIMS_BASE_URL: url, CLAIMS_API_KEY: liveKey });

async function importIn(
  workspace: Workspace,
  input: string,
  journal: string,
  results: string,
  url: string,
  extra: readonly string[] = [],
) {
  return runBin(
    [
      'import',
      input,
      '--mapping',
      genericMapping,
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
    env(url),
    { cwd: workspace.dir },
  );
}

/** The requests of one case or claim id among those the door saw. */
function requestsFor(requests: readonly string[], id: string): string[] {
  return requests.filter((request) => request.includes(`/${id}`));
}

const byRef = (rows: readonly ResultRow[], ref: string) => rows.filter((row) => row.dispute_ref === ref);

describe('feed-back updates the cases the service holds, then files them again', () => {
  it.each([
    ['a new journal', 'fixed.journal.sqlite', []],
    ["--restart on the first run's journal", 'first.journal.sqlite', ['--restart']],
  ])(
    "the measured case, fed back with %s: fixed fraud claims and an added receipt are updated once per case and filed; a filed claim's change is reported, never sent",
    { timeout: 90_000 },
    async (_how, journal, extra) => {
      const workspace = await makeWorkspace();
      await workspace.evidence('receipts/cafe-lumiere-receipt.pdf', 'receipts/receipt.pdf');
      await workspace.evidence('correspondence/fenwick-furniture-email.png', 'receipts/receipt.png');
      const service = await startServiceBehindDoor([liveKey]);
      const notCancelled = { card_active: 'yes', fraud_reported: 'no' };
      await workspace.write(
        'disputes.csv',
        csvOf([
          fraudRow('FR-1', 'T1', notCancelled),
          fraudRow('FR-2', 'T1', notCancelled),
          fraudRow('FR-3', 'T1', notCancelled),
          fraudRow('FR-LEFT', 'T1', notCancelled),
          duplicateChargeRow('DUP-1', 'T1', ''),
          duplicateChargeRow('DUP-FILED', 'T1', 'receipts/receipt.png'),
          fraudRow('OK-1', 'T1'),
          fraudRow('OK-2', 'T1'),
        ]),
      );
      const first = await importIn(workspace, 'disputes.csv', 'first.journal.sqlite', 'first.results.csv', service.url);
      expect(first.exitCode, first.stderr).toBe(1);
      const results = await readResults(join(workspace.dir, 'first.results.csv'));
      expect(results.rows.map((row) => [row.dispute_ref, row.outcome])).toEqual([
        ['FR-1', 'not_filed'],
        ['FR-2', 'not_filed'],
        ['FR-3', 'not_filed'],
        ['FR-LEFT', 'not_filed'],
        ['DUP-1', 'not_filed'],
        ['DUP-FILED', 'filed'],
        ['OK-1', 'filed'],
        ['OK-2', 'filed'],
      ]);
      expect(byRef(results.rows, 'DUP-1')[0]?.error_code).toBe('documentation_missing');

      // The reviewer's fixes, in the results CSV: three cards cancelled and reported, a receipt
      // named, and a filed claim's merchant changed (too late: it is filed).
      const fixed = results.rows.map((row): ResultRow => {
        if (['FR-1', 'FR-2', 'FR-3'].includes(row.dispute_ref ?? ''))
          return { ...row, card_active: 'no', fraud_reported: 'yes' };
        if (row.dispute_ref === 'DUP-1') return { ...row, receipt_file: 'receipts/receipt.pdf' };
        if (row.dispute_ref === 'OK-1') return { ...row, merchant_name: 'Larkspur Electronics GmbH' };
        return row;
      });
      await writeFile(join(workspace.dir, 'fixed.csv'), resultsCsv(results, fixed));

      // A dry run first: what would be updated, per row, with reads only.
      const beforeDry = service.door.requests().length;
      const dry = await importIn(workspace, 'fixed.csv', 'dry.journal.sqlite', 'dry.results.csv', service.url, [
        '--dry-run',
      ]);
      expect(dry.exitCode, dry.stderr).toBe(1);
      expect(dry.stderr).toContain('cases that would be updated: 4 (changed_fields says which fields)');
      expect(
        service.door
          .requests()
          .slice(beforeDry)
          .filter((request) => !request.startsWith('GET ')),
      ).toEqual([]);
      const preview = await readResults(join(workspace.dir, 'dry.results.csv'));
      expect(preview.rows.map((row) => [row.dispute_ref, row.outcome, row.error_code, row.changed_fields])).toEqual([
        ['FR-1', 'valid', '', 'shared.issuer_evidence.card.is_active;shared.issuer_evidence.fraud.was_reported'],
        ['FR-2', 'valid', '', 'shared.issuer_evidence.card.is_active;shared.issuer_evidence.fraud.was_reported'],
        ['FR-3', 'valid', '', 'shared.issuer_evidence.card.is_active;shared.issuer_evidence.fraud.was_reported'],
        ['FR-LEFT', 'valid', '', ''],
        ['DUP-1', 'valid', '', 'evidence.receipt_file'],
        ['DUP-FILED', 'valid', '', ''],
        ['OK-1', 'valid', 'already_filed', ''],
        ['OK-2', 'valid', '', ''],
      ]);
      const before = service.door.requests().length;

      const fed = await importIn(workspace, 'fixed.csv', journal, 'fixed.results.csv', service.url, extra);
      expect(fed.exitCode, fed.stderr).toBe(1);
      expect(fed.stderr).toContain('cases updated: 4 (changed_fields says which fields)');
      const requests = service.door.requests().slice(before);
      const after = await readResults(join(workspace.dir, 'fixed.results.csv'));
      const row = (ref: string) => byRef(after.rows, ref)[0];

      // Nothing created again; one upload, for the receipt.
      expect(requests.filter((request) => request === 'POST /v2/issuer/new_claim')).toEqual([]);
      expect(requests.filter((request) => request === 'POST /v2/issuer/files')).toHaveLength(1);
      for (const ref of ['FR-1', 'FR-2', 'FR-3']) {
        const caseId = row(ref)?.case_id ?? '';
        expect(requestsFor(requests, caseId).filter((request) => request.startsWith('PUT '))).toEqual([
          `PUT /v2/issuer/cases/${caseId}`,
        ]);
        expect(row(ref)).toMatchObject({
          outcome: 'filed',
          error_code: '',
          changed_fields: 'shared.issuer_evidence.card.is_active;shared.issuer_evidence.fraud.was_reported',
        });
      }
      const receiptCase = row('DUP-1')?.case_id ?? '';
      expect(requestsFor(requests, receiptCase).filter((request) => request.startsWith('PUT '))).toHaveLength(1);
      expect(row('DUP-1')).toMatchObject({ outcome: 'filed', error_code: '', changed_fields: 'evidence.receipt_file' });
      expect(row('DUP-1')?.file_ids).toMatch(/^file_/);

      // A filed claim: no write, its row says the change was not applied.
      const filedClaim = row('OK-1')?.claim_id ?? '';
      expect(requestsFor(requests, filedClaim)).toEqual([`GET /v2/issuer/claims/${filedClaim}`]);
      expect(requestsFor(requests, row('OK-1')?.case_id ?? '')).toEqual([]);
      expect(row('OK-1')).toMatchObject({
        outcome: 'filed',
        error_code: 'already_filed',
        error_field: 'case.merchant.name',
        changed_fields: '',
      });
      expect(row('OK-1')?.error_message).toContain('not applied: case.merchant.name');
      // Untouched: one retrieve, nothing more.
      const untouched = row('OK-2')?.claim_id ?? '';
      expect(requestsFor(requests, untouched)).toEqual([`GET /v2/issuer/claims/${untouched}`]);
      expect(row('OK-2')).toMatchObject({ outcome: 'filed', error_code: '', changed_fields: '' });
      // Untouched with its evidence: the files its results line reported are the claim's; nothing uploaded or sent.
      const withEvidence = row('DUP-FILED')?.claim_id ?? '';
      expect(requestsFor(requests, withEvidence)).toEqual([`GET /v2/issuer/claims/${withEvidence}`]);
      expect(row('DUP-FILED')).toMatchObject({
        outcome: 'filed',
        error_code: '',
        changed_fields: '',
        file_ids: byRef(results.rows, 'DUP-FILED')[0]?.file_ids,
      });
      // Left as it was: no update; filed again as before, and refused for the same reason.
      expect(
        requestsFor(requests, row('FR-LEFT')?.case_id ?? '').filter((request) => request.startsWith('PUT ')),
      ).toEqual([]);
      expect(row('FR-LEFT')).toMatchObject({ outcome: 'not_filed', changed_fields: '' });
    },
  );
});
