import { copyFile, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { statusColumns } from '../../src/job-files/import/columns.js';
import { startServiceBehindDoor } from '../helpers/service-doors.js';
import { saveAsWithSoffice, soffice, sofficeRequired } from '../helpers/soffice.js';
import {
  csvOf,
  fraudRow,
  genericMapping,
  makeWorkspace,
  readResults,
  runBin,
  type Workspace,
} from '../import/e2e-fixtures.js';

/**
 * Workbooks in and out, through the real command and a real sandbox process (requests counted at
 * its door): results as a workbook, edited as a person would, fed back; and what a real
 * spreadsheet (LibreOffice) does to a results CSV and to a results workbook.
 */

const liveKey = 'live_workbook_key_0001';
const env = (url: string) => ({ CLAIMS_BASE_URL: url, CLAIMS_API_KEY: liveKey });
const creates = (requests: readonly string[]) =>
  requests.filter((request) => request === 'POST /v2/issuer/new_claim').length;

/** Two good claims (a last4 with a leading zero among them), a last4 short of its zero, an ARN in scientific notation. */
async function exportWithDamage(workspace: Workspace): Promise<void> {
  await workspace.write(
    'disputes.csv',
    csvOf([
      fraudRow('GOOD-1', 'T1', { card_last4: '0417' }),
      fraudRow('LAST4', 'T1', { card_last4: '417' }),
      fraudRow('ARN', 'T1', { arn: '7.44922E+22' }),
      fraudRow('GOOD-2', 'T1'),
    ]),
  );
}

/** The sheet's rows as objects by header, and the cells themselves. */
async function readSheet(
  file: string,
): Promise<{ sheet: ExcelJS.Worksheet; header: string[]; rows: Record<string, ExcelJS.Cell>[] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.worksheets[0];
  if (sheet === undefined) throw new Error('test: a sheet');
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: Record<string, ExcelJS.Cell>[] = [];
  for (let number = 2; number <= sheet.rowCount; number++) {
    const row = sheet.getRow(number);
    rows.push(Object.fromEntries(header.map((name, position) => [name, row.getCell(position + 1)])));
  }
  return { sheet, header, rows };
}

const text = (cell: ExcelJS.Cell | undefined) => (typeof cell?.value === 'string' ? cell.value : '');

describe('results as a workbook, fixed in it and fed back', () => {
  it(
    'text cells, header frozen and filtered, outcomes coloured, the cell to fix marked with its error; two cells fixed and fed back: those claims filed, none created twice',
    { timeout: 90_000 },
    async () => {
      const workspace = await makeWorkspace();
      const service = await startServiceBehindDoor([liveKey]);
      await exportWithDamage(workspace);
      const first = await runBin(
        [
          'import',
          'disputes.csv',
          '--mapping',
          genericMapping,
          '--evidence-dir',
          'evidence',
          '--results',
          'disputes.results.xlsx',
          '--log-level',
          'warn',
        ],
        env(service.url),
        { cwd: workspace.dir },
      );
      expect(first.exitCode, first.stderr).toBe(1);
      expect(creates(service.door.requests())).toBe(2);

      const resultsFile = join(workspace.dir, 'disputes.results.xlsx');
      expect((await stat(resultsFile)).mode & 0o777).toBe(0o600);
      const { sheet, header, rows } = await readSheet(resultsFile);
      expect(header.slice(0, statusColumns.length)).toEqual([...statusColumns]);
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(sheet.autoFilter).toBeDefined();
      expect(rows.map((row) => [text(row.dispute_ref), text(row.outcome), text(row.error_code)])).toEqual([
        ['GOOD-1', 'filed', ''],
        ['LAST4', 'invalid', 'leading_zeros_dropped'],
        ['ARN', 'invalid', 'spreadsheet_damaged'],
        ['GOOD-2', 'filed', ''],
      ]);
      // Every cell is text in a text-formatted column: the last4's zero and the ARN's 23 digits stay.
      const [good, last4, arn] = rows;
      expect(good?.card_last4?.value).toBe('0417');
      expect(good?.arn?.value).toMatch(/^\d{23}$/);
      expect(good?.card_last4?.numFmt).toBe('@');
      expect(
        rows.every((row) => Object.values(row).every((cell) => cell.value === null || typeof cell.value === 'string')),
      ).toBe(true);
      // Outcomes coloured; the source cell behind each error marked, the error as its note.
      const fill = (cell: ExcelJS.Cell | undefined) => (cell?.fill as ExcelJS.FillPattern | undefined)?.fgColor?.argb;
      expect([good, last4].map((row) => fill(row?.outcome))).toEqual(['FFC6EFCE', 'FFFFC7CE']);
      expect(fill(last4?.card_last4)).toBe('FFFF9999');
      expect(JSON.stringify(last4?.card_last4?.note)).toContain('leading_zeros_dropped');
      expect(fill(arn?.arn)).toBe('FFFF9999');
      expect(fill(good?.card_last4)).toBeUndefined();

      // A person fixes the two cells and saves (exceljs writes a shared-strings table, as spreadsheets do).
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(resultsFile);
      const edited = workbook.worksheets[0];
      if (edited === undefined) throw new Error('test: a sheet');
      edited.getCell(3, header.indexOf('card_last4') + 1).value = '0417';
      edited.getCell(4, header.indexOf('arn') + 1).value = '74492156302000184739999';
      await workbook.xlsx.writeFile(join(workspace.dir, 'fixed.xlsx'));

      const before = service.door.requests().length;
      const fed = await runBin(
        [
          'import',
          'fixed.xlsx',
          '--mapping',
          genericMapping,
          '--evidence-dir',
          'evidence',
          '--journal',
          'fix.journal.sqlite',
          '--log-level',
          'warn',
        ],
        env(service.url),
        { cwd: workspace.dir },
      );
      expect(fed.exitCode, fed.stderr).toBe(0);
      const sent = service.door.requests().slice(before);
      // The two fixed claims created; the two filed before only looked up.
      expect(creates(sent)).toBe(2);
      const again = await readSheet(join(workspace.dir, 'fixed.results.xlsx'));
      expect(again.rows.map((row) => [text(row.dispute_ref), text(row.outcome), text(row.error_code)])).toEqual([
        ['GOOD-1', 'filed', ''],
        ['LAST4', 'filed', ''],
        ['ARN', 'filed', ''],
        ['GOOD-2', 'filed', ''],
      ]);
    },
  );
});

describe.skipIf(soffice === undefined && !sofficeRequired)(
  'what a real spreadsheet (LibreOffice Calc) does to the results',
  () => {
    it(
      'a results CSV opened and saved: the ARN in scientific notation, the last4 without its zero, both refused when fed back, 0 requests for them; a results workbook opened and saved: read back unchanged',
      { timeout: 180_000 },
      async () => {
        const workspace = await makeWorkspace();
        const service = await startServiceBehindDoor([liveKey]);
        await workspace.write(
          'disputes.csv',
          csvOf([fraudRow('KEPT', 'T1', { card_last4: '0417' }), fraudRow('OTHER', 'T1')]),
        );
        const run = await runBin(
          ['import', 'disputes.csv', '--mapping', genericMapping, '--evidence-dir', 'evidence', '--log-level', 'warn'],
          env(service.url),
          { cwd: workspace.dir },
        );
        expect(run.exitCode, run.stderr).toBe(0);
        const written = await runBin(
          ['report', 'disputes.results.csv', '--xlsx', 'disputes.results.xlsx'],
          {},
          { cwd: workspace.dir },
        );
        expect(written.exitCode, written.stderr).toBe(0);

        const saved = join(workspace.dir, 'saved');
        await mkdir(saved);
        const csv = await saveAsWithSoffice(join(workspace.dir, 'disputes.results.csv'), 'csv', saved);
        const { rows: damaged } = await readResults(csv);
        expect(damaged[0]?.card_last4).toBe('417');
        expect(damaged[0]?.arn).toMatch(/^7\.\d+E\+0?22$/);
        const before = service.door.requests().length;
        const fedCsv = await runBin(
          [
            'import',
            csv,
            '--mapping',
            genericMapping,
            '--evidence-dir',
            'evidence',
            '--journal',
            'csv.journal.sqlite',
            '--results',
            'csv-fed.results.csv',
            '--log-level',
            'warn',
          ],
          env(service.url),
          { cwd: workspace.dir },
        );
        expect(fedCsv.exitCode, fedCsv.stderr).toBe(1);
        const { rows: refused } = await readResults(join(workspace.dir, 'csv-fed.results.csv'));
        // The first row's last4 lost its zero and its ARN its digits: the first error is its code, both are in its message.
        expect(refused.map((row) => [row.outcome, row.error_code])).toEqual([
          ['invalid', 'leading_zeros_dropped'],
          ['invalid', 'spreadsheet_damaged'],
        ]);
        expect(refused[0]?.error_message).toContain('(and 1 more: case.transaction.arn)');
        expect(service.door.requests().slice(before)).toEqual([]);

        await copyFile(join(workspace.dir, 'disputes.results.xlsx'), join(workspace.dir, 'review.xlsx'));
        const workbook = await saveAsWithSoffice(join(workspace.dir, 'review.xlsx'), 'xlsx', saved);
        const fedWorkbook = await runBin(
          [
            'import',
            workbook,
            '--mapping',
            genericMapping,
            '--evidence-dir',
            'evidence',
            '--journal',
            'xlsx.journal.sqlite',
            '--log-level',
            'warn',
          ],
          env(service.url),
          { cwd: workspace.dir },
        );
        expect(fedWorkbook.exitCode, fedWorkbook.stderr).toBe(0);
        const { rows } = await readSheet(join(workspace.dir, 'review.results.xlsx'));
        expect(rows.map((row) => [text(row.outcome), text(row.card_last4)])).toEqual([
          ['filed', '0417'],
          ['filed', '4417'],
        ]);
        // Found at the service and settled by a retrieve: nothing created again.
        expect(creates(service.door.requests().slice(before))).toBe(0);
      },
    );
  },
);
