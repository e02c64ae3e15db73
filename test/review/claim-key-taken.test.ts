import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { describeService, serviceAt } from '../../src/api/service-identity.js';
import { runImport } from '../../src/import/run-import.js';
import { openReviewJob } from '../../src/review/job.js';
import { FixSender, type SendState } from '../../src/review/send-fixes.js';
import { startReviewServer, type ReviewServer } from '../../src/review/server.js';
import { ReviewStore } from '../../src/review/store.js';
import { claimIds, startServiceBehindDoor, type ServiceBehindDoor } from '../helpers/service-doors.js';
import {
  csvOf,
  daysAgo,
  fraudRow,
  genericMapping,
  makeWorkspace,
  readResults,
  runBin,
  type GenericRow,
  type Workspace,
} from '../import/e2e-fixtures.js';
import { call } from './review-http.js';

/**
 * claim_key_taken, the review side: a second export whose claim keys overlap the first's is refused on
 * those claims (rejected, claim_key_taken, error_field claim.key). `review` counts it with its
 * hint, lists its rows to fix with the key column marked, holds a row whose key was kept and
 * passes one given a key of its own, and sends the fix from the page: the rows with their new
 * keys filed as new claims, the first export's claims left as they were. Two real imports into
 * one sandbox process behind a counting door; the review server over real HTTP.
 */

const liveKey = 'live_review_key_0027';
const env = (url: string) => ({ CLAIMS_BASE_URL: url, CLAIMS_API_KEY: liveKey });

interface RowView {
  line: number;
  claimKey: string;
  claimId: string;
  outcome: string;
  errorCode: string;
  errorField: string;
  errorMessage: string;
  errorColumns: string[];
  hint: string;
  editable: boolean;
  cells: Record<string, string>;
}
interface Check {
  ok: boolean;
  problems: { code: string; message: string; columns: string[] }[];
  mapped: Record<string, string>;
}

/** The first platform's export: R-1..R-3, R-2 with two transactions. */
const firstExport = (): GenericRow[] => [
  fraudRow('R-1', 'T1', { transaction_amount: '101.00', disputed_amount: '101.00' }),
  fraudRow('R-2', 'T1'),
  fraudRow('R-2', 'T2', { transaction_amount: '202.00', disputed_amount: '202.00' }),
  fraudRow('R-3', 'T1'),
];

/** The second platform's: the same references for other disputes (another card, cardholder, amount, day), R-2 with three transactions, and a key of its own. */
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
  return [
    other('R-1', 'T1'),
    other('R-2', 'T1'),
    other('R-2', 'T2'),
    other('R-2', 'T3'),
    other('R-3', 'T1'),
    other('S-1', 'T1'),
  ];
}

async function importIn(workspace: Workspace, name: string, service: ServiceBehindDoor) {
  return runBin(
    [
      'import',
      `${name}.csv`,
      '--mapping',
      genericMapping,
      '--evidence-dir',
      'evidence',
      '--journal',
      `${name}.journal.sqlite`,
      '--results',
      `${name}.results.csv`,
      '--log-level',
      'warn',
    ],
    env(service.url),
    { cwd: workspace.dir },
  );
}

/**
 * The first export imported, then the second into the same sandbox with a journal of its own
 * (R-1..R-3 refused, S-1 filed), and `review --send` on the second's journal, in-process: the
 * sender as the CLI makes it for the job's own service.
 */
async function refusedAndReviewed() {
  const workspace = await makeWorkspace();
  const service = await startServiceBehindDoor([liveKey]);
  await workspace.write('first.csv', csvOf(firstExport()));
  await workspace.write('second.csv', csvOf(secondExport()));
  const first = await importIn(workspace, 'first', service);
  expect(first.exitCode, first.stderr).toBe(0);
  const second = await importIn(workspace, 'second', service);
  expect(second.exitCode, second.stderr).toBe(1);
  return { workspace, service, server: await reviewWithSend(workspace, service) };
}

async function reviewWithSend(workspace: Workspace, service: ServiceBehindDoor): Promise<ReviewServer> {
  const job = await openReviewJob([join(workspace.dir, 'second.journal.sqlite')], genericMapping);
  if (job.kind !== 'import') throw new Error("test: expected an import's journal");
  const identity = serviceAt(service.url, liveKey);
  expect(describeService(identity)).toBe(job.service);
  const sender = new FixSender(
    job,
    { baseUrl: service.url, apiKey: liveKey, identity },
    {
      evidenceDir: workspace.evidenceDir,
      logger: pino({ level: 'silent' }),
      format: 'csv',
      feedBack: async (fix) => runImport({ ...fix, concurrency: 8 }),
    },
  );
  const store = new ReviewStore(ReviewStore.fileFor(job.journal));
  const server = await startReviewServer({ job, store, evidenceDir: workspace.evidenceDir, sender });
  onTestFinished(async () => {
    await server.close();
    store.close();
    await job.close();
  });
  return server;
}

/** The rows to fix of the refused claims, in input order. */
async function refusedRows(server: ReviewServer): Promise<RowView[]> {
  return (await call<{ rows: RowView[] }>(server, 'GET', '/api/rows?code=claim_key_taken')).body.rows;
}

/** An edit as the page sends it: every cell of the row, on each change. */
async function put(server: ReviewServer, row: RowView, cells: Record<string, string>) {
  return (
    await call<{ edited: boolean; check: Check; siblings: { line: number; check: Check }[] }>(
      server,
      'PUT',
      `/api/rows/${row.line}`,
      { body: { cells: { ...row.cells, ...cells } } },
    )
  ).body;
}

const newKey = (row: RowView) => ({ dispute_ref: `B-${row.cells.dispute_ref ?? ''}` });

/** The send the page starts, polled as the page polls it until it ends. */
async function sendAsThePage(server: ReviewServer): Promise<SendState> {
  expect((await call(server, 'POST', '/api/send')).status).toBe(202);
  for (;;) {
    const state = (await call<SendState>(server, 'GET', '/api/send')).body;
    if (state.status === 'done' || state.status === 'failed') return state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('review of a claim key the service holds for another dispute', () => {
  it(
    'counts claim_key_taken with its hint, marks the key cell; a row whose key was kept is held on its key cell, one given its own passes, with the rows of its claim',
    { timeout: 90_000 },
    async () => {
      const { server } = await refusedAndReviewed();
      const overview = (await call(server, 'GET', '/api/overview')).body as {
        rows: number;
        toFix: number;
        outcomes: { outcome: string; count: number }[];
        errors: { code: string; count: number; hint: string }[];
        codes: { code: string; count: number }[];
      };
      expect(overview).toMatchObject({
        rows: 6,
        toFix: 5,
        outcomes: [
          { outcome: 'filed', count: 1 },
          { outcome: 'rejected', count: 5 },
        ],
        codes: [{ code: 'claim_key_taken', count: 5 }],
      });
      expect(overview.errors.map((error) => [error.code, error.count])).toEqual([['claim_key_taken', 5]]);
      expect(overview.errors[0]?.hint).toContain('claim.id_prefix');

      // Each refused row to fix, its key column marked as the cell to fix.
      const rows = await refusedRows(server);
      expect(
        rows.map((row) => [
          row.cells.dispute_ref,
          row.cells.transaction_ref,
          row.outcome,
          row.claimId,
          row.errorField,
          row.errorColumns,
          row.editable,
        ]),
      ).toEqual(
        [
          ['R-1', 'T1'],
          ['R-2', 'T1'],
          ['R-2', 'T2'],
          ['R-2', 'T3'],
          ['R-3', 'T1'],
        ].map(([ref, transaction]) => [
          ref,
          transaction,
          'rejected',
          `CLM-${ref ?? ''}`,
          'claim.key',
          ['dispute_ref'],
          true,
        ]),
      );
      expect(rows[0]?.errorMessage).toContain('claim CLM-R-1 at the service is another dispute under this claim key');
      expect(rows[0]?.hint).toContain('claim.id_prefix');
      const [r1, r2t1, r2t2, r2t3, r3] = rows;
      if (r1 === undefined || r2t1 === undefined || r2t2 === undefined || r2t3 === undefined || r3 === undefined)
        throw new Error('test: the five refused rows');

      // Another cell edited, the key kept: not ready, the key cell still marked (fed back, it would be refused again).
      const keyKept = await put(server, r3, { cardholder_statement: 'I never bought this.' });
      expect(keyKept.check).toMatchObject({
        ok: false,
        problems: [{ code: 'claim_key_taken', columns: ['dispute_ref'] }],
      });
      expect(keyKept.check.problems[0]?.message).toContain(
        'expected an id other than CLM-R-3 (the service holds another dispute under it), got CLM-R-3 again',
      );

      // A key of its own: the row passes; beside the key cell, the first field it gives (the case id: its template starts with the key).
      const rekeyed = await put(server, r1, newKey(r1));
      expect([rekeyed.edited, rekeyed.check.ok, rekeyed.check.problems]).toEqual([true, true, []]);
      expect(rekeyed.check.mapped.dispute_ref).toBe(JSON.stringify('B-R-1-T1'));

      // One row of a claim moved: the two left behind are still on the taken claim, and shown so; once all moved, all pass.
      const firstMoved = await put(server, r2t1, newKey(r2t1));
      expect(firstMoved.check.ok).toBe(true);
      expect(
        firstMoved.siblings.map((sibling) => [sibling.line, sibling.check.problems.map((problem) => problem.code)]),
      ).toEqual([
        [r2t2.line, ['claim_key_taken']],
        [r2t3.line, ['claim_key_taken']],
      ]);
      await put(server, r2t2, newKey(r2t2));
      const allMoved = await put(server, r2t3, newKey(r2t3));
      expect([allMoved.check.ok, ...allMoved.siblings.map((sibling) => sibling.check.ok)]).toEqual([true, true, true]);

      // The fix file keeps the rows' status cells: a rejected row's claim_id names the claim it was refused on, not one it was filed on.
      const saved = (await call<{ file: string; rows: number; command: string }>(server, 'POST', '/api/save')).body;
      expect(saved.rows).toBe(5);
      const { rows: written } = await readResults(saved.file);
      expect(written.map((row) => [row.dispute_ref, row.outcome, row.claim_id])).toEqual([
        ['B-R-1', 'rejected', 'CLM-R-1'],
        ['B-R-2', 'rejected', 'CLM-R-2'],
        ['B-R-2', 'rejected', 'CLM-R-2'],
        ['B-R-2', 'rejected', 'CLM-R-2'],
        ['R-3', 'rejected', 'CLM-R-3'],
      ]);
      expect(saved.command).toContain(`--mapping ${genericMapping}`);
    },
  );

  it(
    "sent from the page, the rows given a key of their own are filed as new claims; a row whose key was kept is refused again; the first export's claims are left as they were",
    { timeout: 90_000 },
    async () => {
      const { service, server } = await refusedAndReviewed();
      const reader = service.client(liveKey);
      expect(await claimIds(reader)).toEqual(['CLM-R-1', 'CLM-R-2', 'CLM-R-3', 'CLM-S-1']);
      const heldBefore = await Promise.all(
        ['CLM-R-1', 'CLM-R-2', 'CLM-R-3'].map(async (claimId) => (await reader.claims.retrieve(claimId)).data),
      );
      const rows = await refusedRows(server);
      for (const row of rows)
        await put(
          server,
          row,
          row.cells.dispute_ref === 'R-3' ? { cardholder_statement: 'I never bought this.' } : newKey(row),
        );

      const doorBefore = service.door.requests().length;
      const state = await sendAsThePage(server);
      expect(state.status, state.error).toBe('done');
      expect(state.outcomes).toMatchObject({ filed: 4, rejected: 1 });
      const fed = await readResults(state.results ?? '');
      expect(
        fed.rows.map((row) => [
          row.dispute_ref,
          row.transaction_ref,
          row.outcome,
          row.error_code,
          row.claim_id,
          row.case_id,
        ]),
      ).toEqual([
        ['B-R-1', 'T1', 'filed', '', 'CLM-B-R-1', 'B-R-1-T1'],
        ['B-R-2', 'T1', 'filed', '', 'CLM-B-R-2', 'B-R-2-T1'],
        ['B-R-2', 'T2', 'filed', '', 'CLM-B-R-2', 'B-R-2-T2'],
        ['B-R-2', 'T3', 'filed', '', 'CLM-B-R-2', 'B-R-2-T3'],
        ['R-3', 'T1', 'rejected', 'claim_key_taken', 'CLM-R-3', 'R-3-T1'],
      ]);
      // Two claims created; the third attempt, R-3's, met the first export's claim and was refused.
      expect(
        service.door
          .requests()
          .slice(doorBefore)
          .filter((request) => request === 'POST /v2/issuer/new_claim'),
      ).toHaveLength(3);
      expect(await claimIds(reader)).toEqual(['CLM-B-R-1', 'CLM-B-R-2', 'CLM-R-1', 'CLM-R-2', 'CLM-R-3', 'CLM-S-1']);
      const filed = (await reader.claims.retrieve('CLM-B-R-2')).data;
      expect(filed.cases?.map((held) => [held.case_id, held.cardholder?.name, held.transaction?.amount])).toEqual(
        ['B-R-2-T1', 'B-R-2-T2', 'B-R-2-T3'].map((caseId) => [caseId, 'Jonas Okafor', 5730]),
      );

      // The first export's claims: nothing written to them or their cases, and held as they were.
      const written = service.door
        .requests()
        .slice(doorBefore)
        .filter((request) => !request.startsWith('GET ') && /\/(CLM-R-\d|R-\d-T\d)(\/|$)/.test(request));
      expect(written).toEqual([]);
      expect(
        await Promise.all(
          ['CLM-R-1', 'CLM-R-2', 'CLM-R-3'].map(async (claimId) => (await reader.claims.retrieve(claimId)).data),
        ),
      ).toEqual(heldBefore);
    },
  );
});
