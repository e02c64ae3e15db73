import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sniffDialect } from '../../../src/csv/sniff-dialect.js';
import { recogniseFixedWidth } from '../../../src/mapping/guess/fixed-width/recognise.js';
import { parseMapping } from '../../../src/mapping/load.js';
import { runCli } from '../../helpers/cli.js';
import { temporaryFolder } from '../../helpers/temporary-folder.js';
import { cbnotFile, simpleFile } from '../../helpers/fixed-width-files.js';

/** `mapping guess` on fixed-width record files (docs/mappings.md, "mapping guess and fixed-width files"). */

const recognise = (head: string, maxRows = 10_000) =>
  recogniseFixedWidth({ head, complete: true, dialect: sniffDialect(head), maxRows });

async function guessFile(text: string, name = 'cbnot.txt') {
  const folder = await temporaryFolder('bulk-disputes-guess-fw-');
  const file = join(folder, name);
  const out = join(folder, 'draft.yaml');
  await writeFile(file, text);
  const result = await runCli(['mapping', 'guess', file, '--out', out]);
  return { ...result, file, out, yaml: await readFile(out, 'utf8') };
}

/** The draft with every TODO done as a person would: each placeholder field's source written, the TODO comments gone. */
function filled(yaml: string, sources: Record<string, string>): string {
  let text = yaml.replace(/^\s*# TODO: .*\n/gm, '');
  for (const [target, source] of Object.entries(sources))
    text = text.replace(`  ${target}: { column: TODO, required: true }`, `  ${target}: ${source}`);
  return text;
}

describe('mapping guess: a fixed-width record file', () => {
  it('a CBNOT-shaped file of two blocks: record types, roles, lengths and counts', () => {
    const guess = recognise(cbnotFile({ blocks: [5, 3] }));
    expect(guess?.records.recordType).toEqual([0, 0]);
    expect(guess?.records.types).toEqual([
      { code: 'H', length: 137, count: 2, role: 'header' },
      { code: 'D', length: 2114, count: 8, role: 'detail' },
      { code: 'T', length: 129, count: 2, role: 'trailer' },
    ]);
    expect(guess?.records.blocks.map((block) => [block.firstLine, block.lines.length, block.details])).toEqual([
      [1, 7, 5],
      [8, 5, 3],
    ]);
    expect(guess?.confidence).toBe('high');
    expect(guess?.firstLine).toBe(2);
  });

  it("the detail fields seen across the records: numbers, dates side by side, amounts cut from a reason code's run", () => {
    const guess = recognise(cbnotFile({ blocks: [5, 3] }));
    expect(guess?.detailFields.map(({ name, kind }) => [name, kind])).toEqual([
      ['field_6_15', 'number'],
      ['field_26_40', 'text'],
      ['field_46_58', 'text'],
      ['field_76_83', 'date'],
      ['field_84_91', 'date'],
      ['field_104_108', 'text'],
      ['field_125_127', 'text'],
      ['field_128_144', 'amount'],
      ['field_182_198', 'amount'],
      ['field_247_264', 'text'],
    ]);
    expect(guess?.sample.rows[0]).toMatchObject({
      field_26_40: '372522XXXXX1000',
      field_125_127: 'R13',
      field_128_144: '-0000000000089.95',
      field_247_264: 'JOHN SMITH',
    });
  });

  it("the trailer's count of all records, header and trailer included, at [35, 43]", () => {
    const guess = recognise(cbnotFile({ blocks: [5, 3] }));
    expect(guess?.recordCount).toEqual({ first: 35, last: 43, counts: 'all_records', agreeing: 2, disagreeing: [] });
  });

  it('a block whose trailer disagrees is named: "block 2\'s trailer says 4, the block holds 5"', async () => {
    const run = await guessFile(cbnotFile({ blocks: [5, 3], trailerCounts: [7, 4] }));
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain("block 2's trailer says 4, the block holds 5");
    expect(run.yaml).toContain("# CHECK: block 2's trailer says 4, the block holds 5");
    expect(run.yaml).toContain('record_count: { field: record_count, counts: all_records }');
  });

  it('a last line trimmed of its trailing spaces, CRLF line endings, blank lines: the same layout', () => {
    const guess = recognise(cbnotFile({ blocks: [2, 2], trimLastLine: true, lineEnding: '\r\n' }) + '\r\n\r\n');
    expect(guess?.records.types.map((type) => type.length)).toEqual([137, 2114, 129]);
    expect(guess?.records.shortLastLine?.line).toBe(8);
    expect(guess?.recordCount).toMatchObject({ first: 35, last: 43, counts: 'all_records', agreeing: 2 });
  });

  it('--rows bounds the detail records read', () => {
    expect(recognise(cbnotFile({ blocks: [5, 3] }), 4)?.sample.rows).toHaveLength(4);
  });

  it('the command: the summary lists the record types, the draft loads, and once its TODOs are done mapping check passes', async () => {
    const run = await guessFile(cbnotFile({ blocks: [5, 3] }));
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain('utf-8, fixed-width records');
    expect(run.stderr).toContain('a fixed-width record file: 2 blocks, record types at [0, 0]:');
    expect(run.stderr).toContain('"D": 2114 characters, 8 records, detail');
    expect(run.stderr).toMatch(/fixed_width +record types at \[0, 0\]: H header, D detail, T trailer +high/);
    expect(run.yaml).toContain('#   "T": 129 characters, 2 records: closes the blocks: trailer');
    expect(run.yaml).toMatch(
      /field_128_144: \[128, 144\] {3}# CHECK: an amount in every record, e\.g\. "-0000000000089\.95"/,
    );
    expect(run.yaml).toMatch(
      /# TODO: text in every record, e\.g\. "JOHN SMITH": take the positions from the file's published layout/,
    );
    // The card numbers, masked as Amex writes them, are card.last4 and tell the network.
    const draft = parseMapping(run.yaml, 'draft.yaml');
    expect(draft.fixed_width?.records.D?.fields.field_128_144).toEqual([128, 144]);
    expect(draft.shared['card.last4']).toMatchObject({ column: 'field_26_40', last4: true });
    expect(draft.controls?.record_count).toEqual({ field: 'record_count', counts: 'all_records' });

    const done = filled(run.yaml, {
      'dispute.reason':
        '{ column: field_125_127, enum: { R13: product_not_received, F29: fraud, C08: product_not_received, F24: fraud } }',
      'transaction.amount':
        '{ column: field_128_144, type: amount, amount: { currency_field: transaction.currency, decimal_separator: "." } }',
      'transaction.currency': '{ constant: USD }',
      'transaction.date': '{ column: field_84_91, type: date, date: { format: yyyyMMdd } }',
      'transaction.arn': '{ column: field_46_58 }',
    });
    expect(done).not.toMatch(/# TODO:|: TODO\b/);
    const donePath = join(run.out, '..', 'done.yaml');
    await writeFile(donePath, done);
    const check = await runCli(['mapping', 'check', donePath]);
    expect(check.stderr).toBe('');
    expect(check.exitCode).toBe(0);
  });

  it('our own 80-character layout: two-character type codes, a Julian date, implied-decimal amounts, a detail count', () => {
    const guess = recognise(simpleFile(6));
    expect(guess?.records.recordType).toEqual([0, 1]);
    expect(guess?.records.types.map((type) => [type.code, type.role, type.length])).toEqual([
      ['01', 'header', 80],
      ['05', 'detail', 80],
      ['09', 'trailer', 80],
    ]);
    expect(guess?.detailFields.slice(0, 5).map(({ name, kind }) => [name, kind])).toEqual([
      ['field_2_13', 'text'],
      ['field_15_18', 'number'],
      ['field_20_30', 'number'],
      ['field_32_38', 'julian_date'],
      ['field_40_43', 'number'],
    ]);
    expect(guess?.headerFields.find((field) => field.first === 32)).toMatchObject({ kind: 'julian_date', last: 38 });
    // The count's digits run on into the amount total: the count is the stretch that equals it.
    expect(guess?.recordCount).toMatchObject({ first: 2, last: 7, counts: 'detail_records', agreeing: 1 });
  });
});

describe('mapping guess: a CSV is never taken for a fixed-width file', () => {
  const sample = fileURLToPath(new URL('../../../samples/generic-export.csv', import.meta.url));

  it('the bundled CSV sample guesses as before', async () => {
    const text = await readFile(sample, 'utf8');
    expect(recognise(text)).toBeUndefined();
    const result = await runCli(['mapping', 'guess', sample]);
    expect(result.stderr).toContain('"," delimited, a header line');
    expect(result.stdout).not.toContain('fixed_width');
  });

  it('a CSV whose lines are all as long as each other, or one column of long codes, is still a CSV', () => {
    const padded = ['ref,amount,date', ...['A-1', 'A-2', 'A-3'].map((ref) => `${ref},0000012.50,2026-03-15`)].join(
      '\n',
    );
    expect(recognise(padded)).toBeUndefined();
    // One column, no delimiter, each line the same length but short: a list of codes.
    expect(recognise(['CODE', 'AB12', 'CD34', 'EF56'].join('\n'))).toBeUndefined();
  });

  it('a report with title lines and a trailer still guesses as a report', async () => {
    const report = [
      'Chargeback report',
      'Generated 2026-03-20',
      'ref;amount;date',
      'R-1;12,50;15.03.2026',
      'R-2;99,00;16.03.2026',
      'Total records: 2',
    ].join('\n');
    expect(recognise(report)).toBeUndefined();
    const run = await guessFile(`${report}\n`, 'report.csv');
    expect(run.stderr).toContain('";" delimited, a header line');
    expect(run.yaml).not.toContain('fixed_width');
  });

  it('lines longer than a CSV row in a head that ends mid-line: the cut line is left out', () => {
    const text = cbnotFile({ blocks: [3] });
    const cut = text.slice(0, text.length - 50);
    const guess = recogniseFixedWidth({ head: cut, complete: false, dialect: sniffDialect(cut, false), maxRows: 100 });
    expect(guess?.records.types.map((type) => type.code)).toEqual(['H', 'D']);
    expect(guess?.recordCount).toBeUndefined();
  });
});
