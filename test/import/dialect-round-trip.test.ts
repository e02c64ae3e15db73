import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusColumns } from '../../src/job-files/import/columns.js';
import { sandboxKey } from '../helpers/sandbox.js';
import {
  bytesIn,
  countingSandbox,
  exportIn,
  germanUtf8,
  germanWindows1252,
  mappingFor,
  readResultsIn,
  tabUtf16,
  tabUtf8,
  type ExportDialect,
} from './dialects.js';
import {
  countIn,
  fraudRow,
  genericColumns,
  makeWorkspace,
  runCli,
  type GenericRow,
  type Workspace,
} from './e2e-fixtures.js';

/**
 * The results CSV speaks its input's dialect, so that staff can fix rows in it and feed it back in
 * with the same mapping, as docs/import.md's "Fixing and feeding back" says. Real files in each
 * dialect, a real sandbox that counts the creates it receives, the CLI in-process.
 */

const env = { CLAIMS_API_KEY: sandboxKey };

/** A cell with the delimiters, a quote, line breaks (CRLF and LF) and characters every dialect here can encode. */
const statement = 'Ich habe das nicht gekauft; bitte prüfen.\r\n„Zahlung“ über 849,99 € – "Karte"\tweg\nEnde';

/** Rows with decimal commas; two are bad on purpose (an amount, a reason code), each alone in its claim. */
function exportRows(): GenericRow[] {
  const german = (ref: string, transaction: string, overrides: GenericRow = {}) =>
    fraudRow(ref, transaction, {
      disputed_amount: '849,99',
      transaction_amount: '1049,99',
      cardholder_name: 'Jörg Müller',
      cardholder_statement: statement,
      ...overrides,
    });
  return [
    german('A', 'T1'),
    german('B', 'T1'),
    german('BAD-AMOUNT', 'T1', { disputed_amount: 'zwölf' }),
    german('A', 'T2', { disputed_amount: '12,50' }),
    german('BAD-REASON', 'T1', { reason_code: 'QQ' }),
    german('C', 'T1', { cardholder_statement: '=kein Formel; nur Text' }),
  ];
}

/** What staff do in an editor: the bad cells replaced, every other byte of the results as written. */
function fixed(dialect: ExportDialect, results: string): string {
  const d = dialect.delimiter;
  const once = (text: string, from: string, to: string) => {
    expect(text.split(from).length, `${JSON.stringify(from)} once in the results`).toBe(2);
    return text.replace(from, to);
  };
  return once(once(results, `${d}zwölf${d}`, `${d}12,50${d}`), `${d}QQ${d}`, `${d}FR${d}`);
}

async function importJob(workspace: Workspace, name: string, input: string, mapping: string, baseUrl: string) {
  const results = join(workspace.dir, `${name}.results.csv`);
  const args = [
    'import',
    input,
    '--mapping',
    mapping,
    '--results',
    results,
    '--journal',
    join(workspace.dir, `${name}.journal.sqlite`),
    '--evidence-dir',
    workspace.evidenceDir,
    '--base-url',
    baseUrl,
  ];
  return { run: await runCli(args, env), results };
}

describe.each([germanUtf8, germanWindows1252, tabUtf16, tabUtf8])('the results CSV of a $name export', (dialect) => {
  it(
    "is written in the export's dialect, reads in report untold, and fed back fixed creates the fixed rows only",
    { timeout: 30_000 },
    async () => {
      const { sandbox, creates } = await countingSandbox();
      const workspace = await makeWorkspace();
      const mapping = await mappingFor(workspace, dialect);
      const rows = exportRows();
      const input = await workspace.write('export.csv', exportIn(dialect, rows));

      const first = await importJob(workspace, 'first', input, mapping, sandbox.url);
      expect(first.run.exitCode, first.run.stderr).toBe(1);
      expect(creates.count).toBe(3);

      // The bytes: the export's mark, encoding, delimiter and line ending; status columns first, by name.
      const results = await readResultsIn(dialect, first.results);
      const mark = bytesIn(dialect, '');
      expect(results.bytes.subarray(0, mark.length).equals(mark)).toBe(true);
      if (!dialect.byteOrderMark) expect(results.bytes[0]).toBe('l'.charCodeAt(0));
      expect(
        results.text.startsWith(
          `${[...statusColumns, ...genericColumns].join(dialect.delimiter)}${dialect.lineEnding}`,
        ),
      ).toBe(true);
      expect(results.rows.map((row) => [row.line, row.case_id, row.outcome, row.error_code])).toEqual([
        ['2', 'A-T1', 'filed', ''],
        ['5', 'B-T1', 'filed', ''],
        ['8', '', 'invalid', 'amount_format'],
        ['11', 'A-T2', 'filed', ''],
        ['14', '', 'invalid', 'enum_unmapped'],
        ['17', 'C-T1', 'filed', ''],
      ]);
      // Source cells unchanged, but for the formula guard; multi-line cells with the delimiter kept whole.
      expect(results.rows.map((row) => row.cardholder_statement)).toEqual([
        statement,
        statement,
        statement,
        statement,
        statement,
        "'=kein Formel; nur Text",
      ]);
      expect(results.rows.map((row) => row.cardholder_name)).toEqual(rows.map(() => 'Jörg Müller'));

      // report, told nothing of the dialect.
      const report = await runCli(['report', first.results]);
      expect(report.exitCode, report.stderr).toBe(0);
      expect(report.stdout).toContain('rows 6, claims 5');
      expect(report.stdout).toMatch(/filed\s+4/);
      expect(report.stdout).toMatch(/invalid\s+2/);
      expect(report.stdout).not.toMatch(/unreadable|csv_/);

      // Fixed in the results file and fed back with the same mapping and a new journal.
      const fedBack = await workspace.write('export.fixed.csv', bytesIn(dialect, fixed(dialect, results.text)));
      const createsBefore = creates.count;
      const second = await importJob(workspace, 'second', fedBack, mapping, sandbox.url);

      expect(second.run.exitCode, second.run.stderr).toBe(0);
      // The two fixed claims are created; the three created before are settled by a retrieve, never sent.
      expect(creates.count - createsBefore).toBe(2);
      expect([countIn(sandbox, 'claims'), countIn(sandbox, 'cases')]).toEqual([5, 6]);
      const again = await readResultsIn(dialect, second.results);
      expect(again.header).toEqual(results.header);
      expect(again.rows.map((row) => [row.line, row.case_id, row.outcome, row.error_code])).toEqual([
        ['2', 'A-T1', 'filed', ''],
        ['5', 'B-T1', 'filed', ''],
        ['8', 'BAD-AMOUNT-T1', 'filed', ''],
        ['11', 'A-T2', 'filed', ''],
        ['14', 'BAD-REASON-T1', 'filed', ''],
        ['17', 'C-T1', 'filed', ''],
      ]);
      expect(again.rows.map((row) => row.cardholder_statement)).toEqual(
        results.rows.map((row) => row.cardholder_statement),
      );
      expect(again.bytes.subarray(0, mark.length).equals(mark)).toBe(true);
    },
  );
});
