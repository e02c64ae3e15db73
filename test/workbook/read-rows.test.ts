import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ControlTally } from '../../src/csv/control-tally.js';
import { CsvFormatError } from '../../src/csv/errors.js';
import type { CsvRow } from '../../src/csv/records.js';
import { readWorkbookRows, type ReadWorkbookOptions } from '../../src/workbook/read-rows.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

/** A sheet's rows read as the text a person sees, typed cells included. */

async function rowsOf(file: string, options?: ReadWorkbookOptions): Promise<CsvRow[]> {
  const rows: CsvRow[] = [];
  for await (const row of readWorkbookRows(file, options)) rows.push(row);
  return rows;
}

/** A workbook as a person (or an issuer's export) saves it: typed cells, a second sheet, a blank row. */
async function typedWorkbook(folder: string): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const disputes = workbook.addWorksheet('Disputes');
  workbook.addWorksheet('Notes').addRow(['not the data']);
  disputes.addRow(['arn', 'last4', 'date', 'amount', 'active', 'total', 'serial']);
  disputes.addRow([
    76775581156029700000000,
    123,
    new Date(Date.UTC(2026, 2, 15)),
    12.5,
    true,
    { formula: 'D2*2', result: 25 },
    123456789012,
  ]);
  disputes.getCell('B2').numFmt = '0000';
  disputes.addRow([]);
  disputes.addRow(['74712345678901234567890', '0123', '2026-03-15', '9,99', 'no', '', '']);
  disputes.addRow(['74712345678901234567891', '0042', '2026-03-16', '1', 'yes', '', '', 'beyond the header']);
  const file = join(folder, 'typed.xlsx');
  await workbook.xlsx.writeFile(file);
  return file;
}

describe('reading a workbook', () => {
  it('reads the first sheet, row numbers as the sheet shows them, typed cells as the text a person sees', async () => {
    const folder = await temporaryFolder('workbook-read-');
    const headers: (readonly string[])[] = [];
    const rows = await rowsOf(await typedWorkbook(folder), { onHeader: (header) => headers.push(header) });
    expect(headers).toEqual([['arn', 'last4', 'date', 'amount', 'active', 'total', 'serial']]);
    expect(rows.map((row) => row.line)).toEqual([2, 4, 5]);
    expect(rows[0]).toMatchObject({
      index: 0,
      // More than 15 digits: the spreadsheet kept 15, the rest is lost: read as it shows, in scientific notation.
      // A zero-padded format shows (and reads) the leading zero; a formula reads as its result.
      raw: ['7.67755811560297E+22', '0123', '2026-03-15', '12.5', 'TRUE', '25', '123456789012'],
    });
    expect(rows[1]).toMatchObject({
      cells: { arn: '74712345678901234567890', last4: '0123', amount: '9,99', active: 'no', total: '' },
    });
    // Data past the header is a column count error, as in a CSV; blank cells past it are not.
    expect(rows[2]).toMatchObject({ line: 5, error: { code: 'csv_column_count' } });
  });

  it('writes a date cell in the format the mapping reads that column with, and a number with its decimal separator', async () => {
    const folder = await temporaryFolder('workbook-read-');
    const readings = new Map([
      ['date', { dateFormat: 'dd/MM/yyyy' }],
      ['amount', { decimalSeparator: ',' as const }],
    ]);
    const [first] = await rowsOf(await typedWorkbook(folder), { readings });
    expect(first).toMatchObject({ cells: { date: '15/03/2026', amount: '12,5' } });
  });

  it('reads the sheet asked for, and names the sheets there are when it is missing', async () => {
    const folder = await temporaryFolder('workbook-read-');
    const file = await typedWorkbook(folder);
    expect(await rowsOf(file, { sheet: 'Notes' })).toEqual([]);
    const missing = rowsOf(file, { sheet: 'Sheet1' });
    await expect(missing).rejects.toThrow(CsvFormatError);
    await expect(missing).rejects.toThrow(
      'workbook: expected a sheet named "Sheet1", got the sheets "Disputes", "Notes"',
    );
  });

  it('refuses a file that is not a workbook, with its own code', async () => {
    const folder = await temporaryFolder('workbook-read-');
    const file = join(folder, 'export.xlsx');
    await writeFile(file, 'ref,amount\n1,2\n');
    await expect(rowsOf(file)).rejects.toMatchObject({ code: 'workbook_unreadable' });
  });
});

describe('reading a workbook report: title rows and a totals row', () => {
  it('reads the table under the title rows and above the totals, the rows outside counted', async () => {
    const folder = await temporaryFolder('workbook-report-');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Chargebacks');
    sheet.addRow(['Chargeback report']);
    sheet.addRow(['Bank: Example', 'Month: 2026-11']);
    sheet.addRow([]);
    sheet.addRow(['Case', 'ARN', 'Amount']);
    sheet.addRow(['C1', '74000000000000000000001', '1.50']);
    sheet.addRow(['Case', 'ARN', 'Amount']);
    sheet.addRow(['C2', '74000000000000000000002', '2.50']);
    sheet.addRow(['Total', '', '4.00']);
    const file = join(folder, 'report.xlsx');
    await workbook.xlsx.writeFile(file);

    let outside: unknown;
    const rows = await rowsOf(file, {
      report: { header: { starts_with: 'Case,ARN' }, trailer: { matches: '^Total,' } },
      onLinesOutside: (found) => (outside = found),
    });
    expect(rows.map((row) => [row.line, 'cells' in row ? row.cells.Case : row.error.code])).toEqual([
      [5, 'C1'],
      [7, 'C2'],
    ]);
    expect(outside).toEqual({ beforeHeader: 2, blank: 0, repeatedHeader: 1, trailer: 1, otherTypes: {} });
  });
});

describe("a workbook report's trailer checked against its rows", () => {
  it('adds up the amounts of the rows above the totals row, the header repeated inside the one block', async () => {
    const folder = await temporaryFolder('workbook-controls-');
    const totalOf = async (total: string) => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Chargebacks');
      sheet.addRow(['Case', 'ARN', 'Amount']);
      sheet.addRow(['C1', '74000000000000000000001', '1.50']);
      sheet.addRow(['Case', 'ARN', 'Amount']);
      sheet.addRow(['C2', '74000000000000000000002', '2.50']);
      sheet.addRow(['Total', '2', total]);
      const file = join(folder, `report-${total}.xlsx`);
      await workbook.xlsx.writeFile(file);
      const controls = {
        record_count: { matches: '^Total,(\\d+),', counts: 'detail_records' as const },
        amount_total: { matches: '^Total,\\d+,(.*)$', sums: 'Amount', implied_decimals: 0 },
      };
      const tally = new ControlTally(controls, true);
      await rowsOf(file, { report: { trailer: { starts_with: 'Total' } }, controls: { controls, tally } });
      return tally.mismatches.map((mismatch) => mismatch.message);
    };
    expect(await totalOf('4.00')).toEqual([]);
    expect(await totalOf('5.00')).toEqual([
      'the trailer on line 5 says a total of 5, the Amount amounts of block 1 (lines 1–5) add up to 4: a file cut short or joined?',
    ]);
  });
});
