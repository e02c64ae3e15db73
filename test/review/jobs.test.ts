import { existsSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FaultInjector } from '../../src/sandbox/faults/fault-injector.js';
import { openReviewJob } from '../../src/review/job.js';
import { ReviewJobError } from '../../src/review/job-types.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import {
  csvOf,
  duplicateChargeRow,
  fraudRow,
  genericMapping,
  makeWorkspace,
  readResults,
  runCli,
  type Workspace,
} from '../import/e2e-fixtures.js';
import { v1Case } from '../migrate/fixtures.js';
import { call, serveReview } from './review-http.js';

/**
 * The journals `review` takes (one import, its shards, a migrate-v1 journal), the
 * overview's figures against the results CSV, and the filters each figure links to. Real imports
 * into the embedded sandbox; the review server over real HTTP.
 */

interface Page {
  total: number;
  rows: {
    line: number;
    outcome: string;
    claimKey: string;
    editable: boolean;
    mixed: boolean;
    errorCode: string;
    cells: Record<string, string>;
  }[];
}

/**
 * A night of five claims: GOOD and LATE filed; DUP not filed (no receipt); WIN filed for T1, not
 * for T2 (its transaction is past the filing window): a claim of mixed outcomes; AMOUNT mistyped.
 */
async function importNight(workspace: Workspace, name: string, extra: readonly string[] = []) {
  await workspace.evidence('receipts/cafe-lumiere-receipt.pdf', 'receipts/receipt.pdf');
  if (!existsSync(join(workspace.dir, 'night.csv'))) {
    await workspace.write(
      'night.csv',
      csvOf([
        fraudRow('GOOD', 'T1'),
        duplicateChargeRow('DUP', 'T1', ''),
        fraudRow('WIN', 'T1'),
        fraudRow('WIN', 'T2', { transaction_date: '2025-01-02' }),
        fraudRow('AMOUNT', 'T1', { disputed_amount: '84x.99' }),
        fraudRow('LATE', 'T1'),
      ]),
    );
  }
  const journal = join(workspace.dir, `${name}.journal.sqlite`);
  const results = join(workspace.dir, `${name}.results.csv`);
  const run = await runCli([
    'import',
    join(workspace.dir, 'night.csv'),
    '--mapping',
    genericMapping,
    '--evidence-dir',
    workspace.evidenceDir,
    '--sandbox-db',
    join(workspace.dir, 'sandbox.db'),
    '--journal',
    journal,
    '--results',
    results,
    '--log-level',
    'silent',
    ...extra,
  ]);
  expect([0, 1], run.stderr).toContain(run.exitCode);
  return { journal, results };
}

describe('bulk-disputes review: the jobs it takes, the overview and its links', () => {
  it(
    "the overview counts what the results CSV holds; each figure's rows: an outcome, an error, a claim, the mixed claims, a search of rows not to fix",
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const { journal, results } = await importNight(workspace, 'night');
      const { rows: written } = await readResults(results);
      const server = await serveReview(await openReviewJob([journal], genericMapping), workspace.evidenceDir);

      const overview = (await call(server, 'GET', '/api/overview')).body as {
        rows: number;
        claims: number;
        outcomes: { outcome: string; count: number }[];
        errors: { code: string; count: number; hint: string }[];
        mixedClaims: { claimKey: string; outcomes: string[] }[];
        mixedClaimsTotal: number;
        toFix: number;
      };
      const count = (outcome: string) => written.filter((row) => row.outcome === outcome).length;
      expect(overview.rows).toBe(written.length);
      expect(overview.outcomes).toEqual([
        { outcome: 'filed', count: 3 },
        { outcome: 'not_filed', count: count('not_filed') },
        { outcome: 'invalid', count: count('invalid') },
      ]);
      expect(count('not_filed') + count('invalid')).toBe(3);
      expect(overview.errors.map((error) => [error.code, error.count])).toEqual([
        ['amount_format', 1],
        ['documentation_missing', 1],
        ['filing_window_expired', 1],
      ]);
      expect(overview.errors.every((error) => error.hint !== '')).toBe(true);
      expect(overview.mixedClaims).toEqual([
        { claimKey: 'WIN', claimId: expect.any(String) as string, outcomes: ['filed', 'not_filed'] },
      ]);
      expect(overview.toFix).toBe(3);

      const rows = async (query: string) => (await call<Page>(server, 'GET', `/api/rows?${query}`)).body;
      // Every row, read-only beyond the rows to fix, with the cells the results CSV shows.
      const filed = await rows('scope=all&outcome=filed');
      expect(filed.total).toBe(count('filed'));
      expect(filed.rows.every((row) => !row.editable)).toBe(true);
      const good = filed.rows.find((row) => row.claimKey === 'GOOD');
      expect(good?.cells).toEqual(
        Object.fromEntries(
          Object.entries(written.find((row) => row.dispute_ref === 'GOOD') ?? {}).filter(
            ([column]) => column in (good?.cells ?? {}),
          ),
        ),
      );
      expect(
        (await call(server, 'PUT', `/api/rows/${good?.line ?? 0}`, { body: { cells: { disputed_amount: '1.00' } } }))
          .status,
      ).toBe(404);
      expect(
        (await rows('scope=all&code=documentation_missing')).rows.map((row) => [
          row.claimKey,
          row.outcome,
          row.editable,
        ]),
      ).toEqual([['DUP', 'not_filed', true]]);
      const claim = await rows('scope=all&claim=WIN');
      expect(claim.rows.map((row) => [row.outcome, row.mixed])).toEqual([
        ['filed', true],
        ['not_filed', true],
      ]);
      expect((await rows('scope=all&mixed=1')).total).toBe(2);
      // A search reaches the cells of rows not to fix (read from the journal's copy).
      expect((await rows(`scope=all&q=${encodeURIComponent('late')}`)).rows.map((row) => row.claimKey)).toEqual([
        'LATE',
      ]);
      expect((await rows(`q=${encodeURIComponent('late')}`)).total).toBe(0);
      // Edited rows only, once one is edited.
      expect((await rows('edited=1')).total).toBe(0);
      const amount = (await rows('code=amount_format')).rows[0];
      await call(server, 'PUT', `/api/rows/${amount?.line ?? 0}`, { body: { cells: { disputed_amount: '849.99' } } });
      expect((await rows('edited=1')).rows.map((row) => row.line)).toEqual([amount?.line]);
    },
  );

  it(
    "offers the evidence folder's files to attach, never a link out of it; saving a not_filed row takes its whole claim",
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const { journal } = await importNight(workspace, 'night');
      await symlink('/etc/hostname', join(workspace.evidenceDir, 'receipts/outside.pdf'));
      const server = await serveReview(await openReviewJob([journal], genericMapping), workspace.evidenceDir);
      expect(((await call(server, 'GET', '/api/evidence?q=rec')).body as { files: string[] }).files).toEqual([
        'receipts/receipt.pdf',
      ]);
      expect(((await call(server, 'GET', '/api/evidence?q=outside')).body as { files: string[] }).files).toEqual([]);
      const notFiled = (await call<Page>(server, 'GET', '/api/rows?code=documentation_missing')).body.rows[0];
      const attached = (
        await call(server, 'PUT', `/api/rows/${notFiled?.line ?? 0}`, {
          body: { cells: { receipt_file: 'receipts/receipt.pdf' } },
        })
      ).body as { check: { ok: boolean } };
      expect(attached.check.ok).toBe(true);
      const late = (await call<Page>(server, 'GET', '/api/rows?code=filing_window_expired')).body.rows[0];
      await call(server, 'PUT', `/api/rows/${late?.line ?? 0}`, {
        body: { cells: { transaction_date: late?.cells.dispute_date ?? '' } },
      });
      const saved = (await call(server, 'POST', '/api/save')).body as { rows: number; command: string; file: string };
      // DUP's row, and both rows of WIN: the filed one goes back with the one fixed (a claim is fed back whole).
      expect(saved.rows).toBe(3);
      expect((await readResults(saved.file)).rows.map((row) => [row.dispute_ref, row.outcome])).toEqual([
        ['DUP', 'not_filed'],
        ['WIN', 'filed'],
        ['WIN', 'not_filed'],
      ]);
      expect(saved.command).toContain(`--evidence-dir ${workspace.evidenceDir}`);
    },
  );

  it(
    "an import's shards reviewed as one job, in input order; a shard missing or a mapping not the job's refused (exit 2)",
    { timeout: 90_000 },
    async () => {
      const workspace = await makeWorkspace();
      const { journal: second } = await importNight(workspace, 'part-2', ['--shard', '2/2']);
      const { journal: first } = await importNight(workspace, 'part-1', ['--shard', '1/2']);
      const whole = await importNight(workspace, 'whole', ['--dry-run']);
      const job = await openReviewJob([second, first], genericMapping);
      expect(job.journals).toEqual([first, second]);
      expect(job.journal).toBe(first);
      const lines = job.entries.map((entry) => entry.line);
      expect(lines).toEqual([...lines].sort((left, right) => left - right));
      expect(lines).toEqual((await readResults(whole.results)).rows.map((row) => Number(row.line)));
      expect(new Set(job.entries.map((entry) => entry.shard))).toEqual(new Set([0, 1]));
      const server = await serveReview(job, workspace.evidenceDir);
      const codes = (await call<Page>(server, 'GET', '/api/rows')).body.rows.map((row) => row.errorCode).sort();
      expect(codes).toEqual(['amount_format', 'documentation_missing', 'filing_window_expired']);

      await expect(openReviewJob([first], genericMapping)).rejects.toThrow(
        /expected all 2 shards, got shard 2\/2 missing/,
      );
      await expect(openReviewJob([first], genericMapping)).rejects.toBeInstanceOf(ReviewJobError);
      const missing = await runCli(['review', first, '--mapping', genericMapping]);
      expect(missing.exitCode).toBe(2);
      expect(missing.stderr).toContain('missing');
      // Without --mapping: the one the journals recorded, unchanged since (refusals: job-mapping.test.ts).
      const recorded = await openReviewJob([first, second], undefined);
      expect(recorded.kind === 'import' ? recorded.mappingFile : undefined).toBe(genericMapping);
      await recorded.close();
    },
  );

  it(
    'a migrate-v1 journal: its failed cases shown with the command that retries them, nothing editable, no --mapping or --send',
    { timeout: 60_000 },
    async () => {
      // Every claim create answers 503 (Retry-After 0): each case fails.
      const faults: FaultInjector = {
        decide: (route) =>
          route.method === 'POST' && route.pattern === '/v2/issuer/claims'
            ? { latencyMs: 0, action: 'fail', retryAfterSeconds: 0 }
            : { latencyMs: 0, action: 'none' },
      };
      const { sandbox, client } = await startTestSandbox({ faults });
      for (const caseId of ['m1', 'm2']) await client.v1.cases.create(v1Case(caseId));
      const workspace = await makeWorkspace();
      const journal = join(workspace.dir, 'migrate.journal.sqlite');
      const migrated = await runCli(
        [
          'migrate-v1',
          '--base-url',
          sandbox.url,
          '--journal',
          journal,
          '--results',
          join(workspace.dir, 'migrate.results.csv'),
          '--group-by',
          'merchant.name',
          '--log-level',
          'silent',
        ],
        { CLAIMS_API_KEY: sandboxKey },
      );
      expect(migrated.exitCode, migrated.stderr).toBe(1);

      const job = await openReviewJob([journal], undefined);
      expect(job.kind).toBe('migrate-v1');
      const server = await serveReview(job, workspace.dir);
      const overview = (await call(server, 'GET', '/api/overview')).body as {
        kind: string;
        outcomes: { outcome: string; count: number }[];
        retry: string;
      };
      expect(overview.outcomes).toEqual([{ outcome: 'failed', count: 2 }]);
      expect(overview.retry).toBe(`bulk-disputes migrate-v1 --journal ${journal} --group-by merchant.name`);
      const page = (await call<Page>(server, 'GET', '/api/rows')).body;
      expect(page.rows.map((row) => [row.cells.case_id, row.outcome, row.editable]).sort()).toEqual([
        ['m1', 'failed', false],
        ['m2', 'failed', false],
      ]);
      expect((await call(server, 'PUT', `/api/rows/1`, { body: { cells: {} } })).status).toBe(404);
      expect((await call(server, 'POST', '/api/save')).status).toBe(404);
      const withMapping = await runCli(['review', journal, '--mapping', genericMapping]);
      expect([withMapping.exitCode, withMapping.stderr.includes('expected no --mapping')]).toEqual([2, true]);
    },
  );

  it(
    'a job whose input was a workbook saves its fixes as a workbook; a journal path with nothing there exits 2, naming it',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const lines: string[][] = parse(
        csvOf([fraudRow('GOOD', 'T1'), fraudRow('AMOUNT', 'T1', { disputed_amount: '84x.99' })]),
      );
      const [header = [], ...records] = lines;
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Disputes');
      for (const record of [header, ...records]) sheet.addRow(record);
      const input = join(workspace.dir, 'night.xlsx');
      await workbook.xlsx.writeFile(input);
      const journal = join(workspace.dir, 'night.journal.sqlite');
      const run = await runCli([
        'import',
        input,
        '--mapping',
        genericMapping,
        '--evidence-dir',
        workspace.evidenceDir,
        '--sandbox-db',
        join(workspace.dir, 'sandbox.db'),
        '--journal',
        journal,
        '--results',
        join(workspace.dir, 'night.results.xlsx'),
        '--log-level',
        'silent',
      ]);
      expect(run.exitCode, run.stderr).toBe(1);
      const server = await serveReview(await openReviewJob([journal], genericMapping), workspace.evidenceDir);
      const [row] = (await call<Page>(server, 'GET', '/api/rows')).body.rows;
      await call(server, 'PUT', `/api/rows/${row?.line ?? 0}`, { body: { cells: { disputed_amount: '849.99' } } });
      const saved = (await call(server, 'POST', '/api/save')).body as { file: string };
      expect(saved.file).toMatch(/night\.fix-1\.results\.xlsx$/);
      const back = new ExcelJS.Workbook();
      await back.xlsx.readFile(saved.file);
      const values = (back.worksheets[0]?.getRow(2).values ?? []) as unknown[];
      expect(values).toContain('849.99');
      expect(values).toContain('AMOUNT');

      const nothing = await runCli(['review', join(workspace.dir, 'no.journal.sqlite'), '--mapping', genericMapping]);
      expect(nothing.exitCode).toBe(2);
      expect(nothing.stderr).toContain(
        `journal ${join(workspace.dir, 'no.journal.sqlite')}: expected a job's journal file, got nothing there`,
      );
    },
  );
});
