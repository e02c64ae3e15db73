import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { v1Case } from '../migrate/fixtures.js';
import { readResults } from '../import/e2e-fixtures.js';
import { importSampleWithBadAmount, temporaryFolder } from './fixture.js';

/** Every command that writes results writes a workbook when asked, and report turns results into one. */

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Sheet {
  header: string[];
  rows: string[][];
  cell: (row: number, column: string) => ExcelJS.Cell;
}

async function sheetOf(file: string): Promise<Sheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.worksheets[0];
  if (sheet === undefined) throw new Error('test: a sheet');
  const texts = (number: number) =>
    Array.from({ length: sheet.columnCount }, (_, position) => {
      const value = sheet.getRow(number).getCell(position + 1).value;
      return typeof value === 'string' ? value : '';
    });
  const header = texts(1);
  return {
    header,
    rows: Array.from({ length: sheet.rowCount - 1 }, (_, index) => texts(index + 2)),
    cell: (row, column) => sheet.getRow(row + 1).getCell(header.indexOf(column) + 1),
  };
}

const fill = (cell: ExcelJS.Cell) => (cell.fill as ExcelJS.FillPattern | undefined)?.fgColor?.argb;

describe('results workbooks from every command that writes results', () => {
  it(
    "import's journal, report --xlsx and merge-results --out .xlsx give the rows of the results CSV; a journal's marks the cell behind the error",
    { timeout: 60_000 },
    async () => {
      const folder = await temporaryFolder();
      // The sample with one amount a person mistyped.
      const { input, journal, results, imported } = await importSampleWithBadAmount(folder, '84x.99');
      expect(imported.exitCode, imported.stderr).toBe(1);
      const csv = await readResults(results);

      expect((await runCli(['report', results, '--xlsx', join(folder, 'from-csv.xlsx')])).exitCode).toBe(0);
      expect((await runCli(['report', journal, '--xlsx', join(folder, 'from-journal.xlsx')])).exitCode).toBe(0);
      expect((await runCli(['merge-results', '--out', join(folder, 'merged.xlsx'), journal])).exitCode).toBe(0);
      // Every file it writes, it reads: the report of a results workbook is the CSV's.
      const csvReport = await runCli(['report', results]);
      const workbookReport = await runCli(['report', join(folder, 'merged.xlsx')]);
      expect(workbookReport.exitCode, workbookReport.stderr).toBe(csvReport.exitCode);
      expect(workbookReport.stdout.split('\n').slice(1)).toEqual(csvReport.stdout.split('\n').slice(1));
      expect(workbookReport.stdout.split('\n')[0]).toContain('(results workbook)');
      for (const name of ['from-csv', 'from-journal', 'merged']) {
        const file = join(folder, `${name}.xlsx`);
        const sheet = await sheetOf(file);
        expect(sheet.header, name).toEqual(csv.header);
        expect(sheet.rows, name).toEqual(csv.rows.map((row) => csv.header.map((column) => row[column] ?? '')));
        expect((await stat(file)).mode & 0o777).toBe(0o600);
      }
      const invalid = csv.rows.findIndex((row) => row.outcome === 'invalid') + 1;
      expect(csv.rows[invalid - 1]?.error_field).toBe('case.dispute.amount');
      // The journal knows its mapping: the disputed_amount cell is marked; a results CSV does not record it.
      const fromJournal = await sheetOf(join(folder, 'from-journal.xlsx'));
      expect(fill(fromJournal.cell(invalid, 'disputed_amount'))).toBe('FFFF9999');
      expect(JSON.stringify(fromJournal.cell(invalid, 'disputed_amount').note)).toContain('amount_format');
      expect(fill(fromJournal.cell(invalid, 'outcome'))).toBe('FFFFC7CE');
      const fromCsv = await sheetOf(join(folder, 'from-csv.xlsx'));
      expect(fill(fromCsv.cell(invalid, 'outcome'))).toBe('FFFFC7CE');

      const two = await runCli(['report', results, journal, '--xlsx', join(folder, 'two.xlsx')]);
      expect(two.exitCode).toBe(2);
      expect(two.stderr).toContain(
        'expected one results file or journal, got 2 (the shards of one import: merge-results --out FILE.xlsx)',
      );
      const named = await runCli([
        'import',
        input,
        '--mapping',
        join(root, 'mappings/generic.yaml'),
        '--results',
        join(folder, 'r.csv'),
        '--results-format',
        'xlsx',
      ]);
      expect(named.exitCode).toBe(2);
      expect(named.stderr).toContain('expected a name ending in .xlsx with --results-format xlsx');
    },
  );

  it('migrate-v1 --results FILE.xlsx: one row per v1 case, outcomes coloured', { timeout: 60_000 }, async () => {
    const { sandbox, client } = await startTestSandbox();
    const folder = await temporaryFolder();
    for (const caseId of ['w1', 'w2']) await client.v1.cases.create(v1Case(caseId));
    const results = join(folder, 'migrate.results.xlsx');
    const migrated = await runCli(
      [
        'migrate-v1',
        '--base-url',
        sandbox.url,
        '--journal',
        join(folder, 'migrate.journal.sqlite'),
        '--results',
        results,
        '--log-level',
        'silent',
      ],
      { CLAIMS_API_KEY: sandboxKey },
    );
    expect(migrated.exitCode, migrated.stderr).toBe(0);
    const sheet = await sheetOf(results);
    expect(sheet.header).toEqual([
      'case_id',
      'claim_id',
      'group_key',
      'outcome',
      'error_code',
      'error_message',
      'http_status',
    ]);
    // In the v1 listing's order (newest first).
    expect(sheet.rows.map((row) => [row[0], row[3]]).sort()).toEqual([
      ['w1', 'migrated'],
      ['w2', 'migrated'],
    ]);
    expect(fill(sheet.cell(1, 'outcome'))).toBe('FFC6EFCE');
    expect((await stat(results)).mode & 0o777).toBe(0o600);
  });
});
