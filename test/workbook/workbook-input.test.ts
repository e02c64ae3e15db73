import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';
import { readResults } from '../import/e2e-fixtures.js';

/**
 * An issuer export delivered as a workbook reads as its CSV does. The bundled sample saved as a
 * person's spreadsheet types it (dates as date cells, amounts and codes as numbers); its dry run
 * maps every row to the same claim bodies as the CSV's.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const sampleCsv = join(root, 'samples/generic-export.csv');
const mapping = join(root, 'mappings/generic.yaml');
const evidence = join(root, 'samples/evidence');

/** The sample CSV as a typed workbook on a sheet named "Disputes", after a cover sheet. */
async function typedSample(folder: string, edit?: (sheet: ExcelJS.Worksheet) => void): Promise<string> {
  const records: string[][] = parse(await readFile(sampleCsv, 'utf8'));
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Cover').addRow(['Disputes export, November']);
  const sheet = workbook.addWorksheet('Disputes');
  const [header = [], ...rows] = records;
  sheet.addRow(header);
  for (const row of rows) {
    sheet.addRow(
      row.map((cell, position) => {
        const column = header[position] ?? '';
        if (/_date$/.test(column) && /^\d{4}-\d{2}-\d{2}$/.test(cell)) return new Date(`${cell}T00:00:00Z`);
        // Codes typed as numbers too, where that loses nothing (a leading zero would be lost: the next test).
        if (/amount$|^mcc$|^card_last4$/.test(column) && /^[1-9]\d*(\.\d+)?$/.test(cell)) return Number(cell);
        return cell;
      }),
    );
  }
  edit?.(sheet);
  const file = join(folder, 'export.xlsx');
  await workbook.xlsx.writeFile(file);
  return file;
}

const dryRun = async (input: string, folder: string, name: string, extra: string[] = []) =>
  runCli([
    'import',
    input,
    '--mapping',
    mapping,
    '--evidence-dir',
    evidence,
    '--dry-run',
    '--results',
    join(folder, `${name}.results.csv`),
    '--payloads',
    join(folder, `${name}.jsonl`),
    '--log-level',
    'warn',
    ...extra,
  ]);

describe('an export delivered as a workbook', () => {
  it('dry-runs to the same claim bodies and outcomes as the same export as CSV', { timeout: 60_000 }, async () => {
    const folder = await temporaryFolder('workbook-input-');
    const workbook = await typedSample(folder);
    const fromCsv = await dryRun(sampleCsv, folder, 'csv');
    const fromWorkbook = await dryRun(workbook, folder, 'xlsx', ['--sheet', 'Disputes']);
    expect(fromWorkbook.exitCode, fromWorkbook.stderr).toBe(fromCsv.exitCode);
    // Claims are checked concurrently: the same bodies, in any order.
    const bodies = async (name: string) => (await readFile(join(folder, `${name}.jsonl`), 'utf8')).split('\n').sort();
    expect(await bodies('xlsx')).toEqual(await bodies('csv'));
    const outcomes = async (name: string) =>
      (await readResults(join(folder, `${name}.results.csv`))).rows.map((row) => [
        row.line,
        row.outcome,
        row.error_code,
      ]);
    expect(await outcomes('xlsx')).toEqual(await outcomes('csv'));
    // Without --sheet the first sheet is read: the cover, a title and none of the mapping's columns.
    const first = await dryRun(workbook, folder, 'cover', ['--log-format', 'pretty']);
    expect(first.exitCode).toBe(2);
    expect(first.stderr).toContain(
      `HEADER_MISMATCH: ${workbook} has none of the mapping's columns on its first sheet (another is read with ` +
        '--sheet NAME); is it the export',
    );
    expect(existsSync(join(folder, 'cover.results.csv'))).toBe(false);
  });

  it(
    'an ARN a spreadsheet typed as a number is refused as damage; a last4 typed with a 0000 format keeps its zero',
    { timeout: 60_000 },
    async () => {
      const folder = await temporaryFolder('workbook-input-');
      const workbook = await typedSample(folder, (sheet) => {
        const header = (sheet.getRow(1).values as unknown[]).map(String);
        // What a spreadsheet keeps of 74492156302000184736251 typed as a number.
        sheet.getCell(2, header.indexOf('arn')).value = 7.449215630200018e22;
        sheet.getCell(3, header.indexOf('card_last4')).value = 417;
        sheet.getCell(3, header.indexOf('card_last4')).numFmt = '0000';
      });
      const run = await dryRun(workbook, folder, 'damaged', ['--sheet', 'Disputes']);
      expect(run.exitCode).toBe(1);
      const { rows } = await readResults(join(folder, 'damaged.results.csv'));
      expect([rows[0]?.outcome, rows[0]?.error_code]).toEqual(['invalid', 'spreadsheet_damaged']);
      expect(rows[0]?.arn).toMatch(/^7\.449215630200\d*E\+22$/);
      expect([rows[1]?.card_last4, rows[1]?.error_code]).not.toContain('leading_zeros_dropped');
      expect(rows[1]?.card_last4).toBe('0417');
    },
  );

  it(
    'mapping guess drafts from a workbook; lint and explain say the csv section does not apply',
    { timeout: 60_000 },
    async () => {
      const folder = await temporaryFolder('workbook-input-');
      const workbook = await typedSample(folder);
      const draft = join(folder, 'draft.yaml');
      const guessed = await runCli(['mapping', 'guess', workbook, '--sheet', 'Disputes', '--out', draft]);
      expect(guessed.exitCode, guessed.stderr).toBe(0);
      const yaml = await readFile(draft, 'utf8');
      expect(yaml).toContain('key: [dispute_ref]');
      expect(yaml).toMatch(/transaction_date.*format: yyyy-MM-dd/);
      const lint = await runCli(['mapping', 'lint', mapping]);
      expect(lint.stdout).toContain(
        "workbook     an .xlsx input reads its sheet's cells: the csv section's delimiter, quote and encoding do not apply",
      );
      const explain = await runCli(['mapping', 'explain', mapping, workbook, '--sheet', 'Disputes', '--line', '2']);
      expect(explain.exitCode, explain.stderr).toBe(0);
      expect(explain.stdout).toContain(
        'sheet "Disputes" of a workbook: the mapping\'s csv section (delimiter, quote, encoding) does not apply',
      );
      expect(explain.stdout).toContain('result: maps');
    },
  );
});
