import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { main } from '../../src/cli/main.js';
import { readRows } from '../../src/csv/read-rows.js';
import { loadMapping } from '../../src/mapping/load.js';
import { mapRow, type FieldError, type MappedRow } from '../../src/mapping/map-row.js';

/** Runs the CLI in-process and keeps what it wrote. */
async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const exitCode = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
  });
  return { exitCode, stdout, stderr };
}

/** Writes the files into a fresh temp folder, removed when the test ends. */
async function fixture(files: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'bulk-disputes-mapping-'));
  onTestFinished(async () => rm(folder, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) await writeFile(join(folder, name), text);
  return folder;
}

const genericMapping = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));

/** A semicolon export: amounts as 1.234,56, a currency read from another field, evidence split on "|". */
const testMapping = `description: test export
csv: { delimiter: ";" }
claim:
  key: [ref]
  id: { template: "CLM-{ref}" }
shared:
  card.last4: { column: card, required: true }
  card.network: { column: network, required: true, enum: { visa: visa, mc: mastercard }, enum_case_sensitive: false }
  card.expiry_month: { column: expiry, split: { separator: "/", index: 0 }, type: integer }
  cardholder.type: { constant: individual }
  dispute.reason: { column: reason, required: true, enum: { FR: fraud, NR: product_not_received } }
  dispute.raised_by: { constant: cardholder }
  issuer_evidence.fraud.was_reported: { column: reported, type: boolean, default: "no" }
case:
  case_id: { template: "{ref}-{seq}" }
  dispute.amount: { column: amount, type: amount, amount: { currency_field: dispute.currency, decimal_separator: ",", group_separator: "." } }
  dispute.currency: { column: currency, required: true, case: upper }
  transaction.amount: { column: amount, type: amount, amount: { currency: EUR, decimal_separator: ",", group_separator: "." } }
  transaction.currency: { constant: EUR }
  transaction.date: { column: opened, required: true, type: date, date: { format: dd.MM.yyyy } }
  transaction.arn: { column: arn, required: true }
custom_fields:
  batch: { constant: 7 }
evidence:
  - { column: files, category: transaction_receipt, separator: "|" }
`;

// Line 1 header; 2 and 3 map (3 with a blank, optional expiry); 4-5 is one record (a quoted line break) with an unmapped reason and
// bad amounts; 6 has an error in nearly every field; 7 has too few columns.
const testExport = [
  'ref;seq;card;network;expiry;reason;reported;amount;currency;opened;arn;files',
  'D-1;1;4242;VISA;09/28;FR;;1.234,56;eur;15.03.2026;74537604152001234509876;a.pdf| b.png',
  'D-1;2;4242;visa;;FR;yes;9,99;eur;16.03.2026;74537604152001234509877;',
  'D-2;1;1111;MC;"12\n/27";XX;no;9.99;eur;17.03.2026;74537604152001234509878;c.pdf',
  'D-3;1;2222;amex;01/30;NR;maybe;12,345;JPY;31.02.2026;;',
  'D-4;1;3333',
  '',
].join('\n');

const genericExport = [
  'dispute_ref,transaction_ref,card_last4,card_network,card_type,card_expiry,cardholder_name,cardholder_email,reason_code,dispute_date,card_active,fraud_reported,cardholder_statement,disputed_amount,currency,merchant_name,mcc,transaction_amount,transaction_date,arn,receipt_file,correspondence_files',
  'D-100,T1,4242, VISA ,Credit,09/2028,Maya Lindqvist,maya@example.com,FR,2026-03-15,no,,"not me\nat all",1234.56,usd,Voltmart,5732,1234.56,2026-03-01,74537604152001234509876,receipts/d-100.pdf,mail/1.png; mail/2.png',
  'D-100,T2,4242,visa,credit,09/2028,Maya Lindqvist,,FR,2026-03-15,no,yes,,10.00,usd,,,10.00,2026-03-02,74537604152001234509877,,',
  'D-101,T1,1111,mastercard,debit,12/2027,Ola,,XX,2026-03-16,yes,no,,"9,99",EUR,Shop,5411,9.99,2026-02-30,,,',
  ',T1,2222,visa,,,,,NR,,maybe,,,5,JPY,,,5,2026-03-03,74537604152001234509879,,',
  '',
].join('\n');

async function testFiles() {
  const folder = await fixture({ 'test.yaml': testMapping, 'export.csv': testExport });
  return { mapping: join(folder, 'test.yaml'), input: join(folder, 'export.csv') };
}

describe('bulk-disputes mapping lint', () => {
  it('summarises a valid mapping on stdout, exit 0', async () => {
    const result = await run(['mapping', 'lint', genericMapping]);

    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toContain(`${genericMapping}: ok`);
    expect(result.stdout).toContain("csv          delimiter ',', quote '\"', utf-8, header line");
    expect(result.stdout).toContain('claim        key dispute_ref; id from template "CLM-{dispute_ref}"');
    expect(result.stdout).toMatch(/fields {7}\d+ shared, 9 case, 1 custom, 2 evidence columns/);
    expect(result.stdout).toContain('file_mode    auto');
    expect(result.stdout).toContain('card numbers masked in every column\n');
  });

  it("names a mapping's not_card_numbers columns, the exceptions to masking", async () => {
    const folder = await fixture({
      'kept.yaml': `${await readFile(genericMapping, 'utf8')}\nnot_card_numbers: [order_no]\n`,
    });
    const result = await run(['mapping', 'lint', join(folder, 'kept.yaml')]);

    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toContain(
      'card numbers masked in every column but "order_no" (not_card_numbers: kept as read)',
    );
  });

  it('names file, line and field of each problem on stderr, exit 2 when any file is bad', async () => {
    const folder = await fixture({
      'broken.yaml': [
        'claim:',
        '  key: [ref]',
        'shared:',
        '  card.last4: { column: card }',
        '  card.network: { column: network, case: sideways }',
        '  dispute.reason: { colum: reason }',
        'case: {}',
        '',
      ].join('\n'),
    });
    const broken = join(folder, 'broken.yaml');

    const result = await run(['mapping', 'lint', genericMapping, broken, join(folder, 'missing.yaml')]);

    expect(result.exitCode).toBe(2);
    expect(result.stdout).toContain(`${genericMapping}: ok`);
    expect(result.stderr).toContain(`${broken}:5: shared.card.network.case: `);
    expect(result.stderr).toContain(
      `${broken}:6: shared.dispute.reason.colum: expected a known field, got an unknown one`,
    );
    expect(result.stderr).toContain(
      `${broken}:6: shared.dispute.reason: expected exactly one of column, constant and template`,
    );
    expect(result.stderr).toContain(`${join(folder, 'missing.yaml')}: expected a readable mapping file, got ENOENT`);
  });

  it('has help with an example', async () => {
    const result = await run(['mapping', 'lint', '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('$ bulk-disputes mapping lint mappings/generic.yaml');
    expect((await run(['mapping', 'lint'])).exitCode).toBe(2);
  });
});

describe('bulk-disputes mapping explain', () => {
  it('shows each field: its source, the cell, every step and the result, exit 0 when the row maps', async () => {
    const { mapping, input } = await testFiles();

    const result = await run(['mapping', 'explain', mapping, input, '--line', '2']);

    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    const text = result.stdout;
    expect(text).toContain(`${input}:2 through ${mapping}\nclaim key: ref "D-1"\n`);
    expect(text).toMatch(
      /case\.dispute\.amount from column "amount"\n {2}cell +"1\.234,56"\n {2}trim +"1\.234,56"\n {2}amount in dispute\.currency, decimal ",", group "\." +123456\n {2}= 123456\n/,
    );
    expect(text).toMatch(
      /shared\.card\.network from column "network"\n {2}cell +"VISA"\n {2}trim +"VISA"\n {2}required +"VISA"\n {2}enum 2 values, ignoring case +"visa"\n {2}= "visa"\n/,
    );
    expect(text).toMatch(
      /shared\.issuer_evidence\.fraud\.was_reported from column "reported"\n {2}cell +""\n {2}trim +""\n {2}default +"no"\n {2}boolean +false\n {2}= false\n/,
    );
    expect(text).toMatch(
      /shared\.card\.expiry_month from column "expiry"\n(?: {2}.*\n)* {2}split "\/" index 0 +"09"\n {2}integer +9\n {2}= 9\n/,
    );
    expect(text).toMatch(/custom_fields\.batch from constant 7\n {2}constant +7\n {2}= 7\n/);
    expect(text).toContain(
      'evidence\n  a.pdf  transaction_receipt (column files)\n  b.png  transaction_receipt (column files)\n',
    );
    expect(text).toContain('result: maps (claim key ["D-1"], claim id "CLM-D-1")\n');
    // Amounts come last: they read the currency another field maps.
    expect(text.indexOf('case.dispute.currency from')).toBeLessThan(text.indexOf('case.dispute.amount from'));
  });

  it('lists every field error with its code and message, exit 1', async () => {
    const { mapping, input } = await testFiles();

    const result = await run(['mapping', 'explain', mapping, input, '--line', '4']);

    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(
      /shared\.dispute\.reason from column "reason"\n(?: {2}.*\n)* {2}enum 2 values +error enum_unmapped\n {2}= error enum_unmapped: enum: expected one of "FR", "NR", got "XX"\n/,
    );
    expect(result.stdout).toContain('result: 3 field errors\n');
    expect(result.stdout).toContain(
      '  shared.dispute.reason: enum_unmapped: enum: expected one of "FR", "NR", got "XX"\n',
    );
    expect(result.stdout).toContain(
      '  case.dispute.amount: amount_format: amount: expected digits with "," as decimal separator and "." grouping digits by three, got "9.99"\n',
    );
    expect(result.stdout).toContain('  case.transaction.amount: amount_format: ');
    // The record spans lines 4 and 5; the split part is trimmed of the line break.
    expect(result.stdout).toMatch(/ {2}cell +"12\\n\/27"\n(?: {2}.*\n)* {2}= 12\n/);
    expect(result.stdout).toContain('evidence\n  c.pdf  transaction_receipt (column files)\n');
  });

  it('--json prints the same as one JSON document', async () => {
    const { mapping, input } = await testFiles();

    const failed = await run(['mapping', 'explain', mapping, input, '--line', '4', '--json']);
    const document = JSON.parse(failed.stdout) as ExplainDocument;

    expect(failed.exitCode).toBe(1);
    expect(document).toMatchObject({
      mapping,
      input,
      line: 4,
      ok: false,
      row: null,
      claimKey: { columns: ['ref'], values: ['D-2'] },
    });
    expect(document.errors.map((error) => error.code)).toEqual(['enum_unmapped', 'amount_format', 'amount_format']);
    const reason = document.fields.find((field) => field.field === 'shared.dispute.reason');
    expect(reason).toMatchObject({ source: { column: 'reason' }, result: { ok: false, code: 'enum_unmapped' } });
    expect(reason?.steps.map((step) => step.step)).toEqual(['column', 'trim', 'required', 'enum']);

    const mapped = JSON.parse(
      (await run(['mapping', 'explain', mapping, input, '--line', '2', '--json'])).stdout,
    ) as ExplainDocument;
    expect(mapped).toMatchObject({
      ok: true,
      errors: [],
      row: { claimId: 'CLM-D-1', case: { dispute: { amount: 123456, currency: 'EUR' } } },
    });
    // A blank optional cell is a field left out: "value": null, not a missing key.
    const blank = JSON.parse(
      (await run(['mapping', 'explain', mapping, input, '--line', '3', '--json'])).stdout,
    ) as ExplainDocument;
    expect(blank.fields.find((field) => field.field === 'shared.card.expiry_month')?.result).toEqual({
      ok: true,
      value: null,
    });
    expect(blank.row?.shared).not.toHaveProperty('card.expiry_month');
  });

  it.each([
    ['1', 'expected the first line of a record, got the header (the first record starts at line 2)'],
    ['5', 'expected the first line of a record, got a line inside the record that starts at line 4'],
    ['8', 'expected the first line of a record, got a line past the end (the last record starts at line 7)'],
    ['99', 'expected the first line of a record, got a line past the end (the last record starts at line 7)'],
  ])('--line %s is a usage error saying what the line is, exit 2', async (line, message) => {
    const { mapping, input } = await testFiles();

    const result = await run(['mapping', 'explain', mapping, input, '--line', line]);

    expect(result).toMatchObject({ exitCode: 2, stdout: '' });
    expect(result.stderr).toContain(`${input}:${line}: ${message}`);
  });

  it('a record that cannot be read is shown as such, exit 1; a bad --line, input or mapping exits 2', async () => {
    const { mapping, input } = await testFiles();

    const unreadable = await run(['mapping', 'explain', mapping, input, '--line', '7']);
    expect(unreadable.exitCode).toBe(1);
    expect(unreadable.stdout).toContain(
      'result: csv_column_count: record: expected 12 columns as in the header, got 3',
    );

    expect((await run(['mapping', 'explain', mapping, input, '--line', '0'])).stderr).toContain(
      'expected a line number from 1, got "0"',
    );
    expect((await run(['mapping', 'explain', mapping, input])).exitCode).toBe(2);
    const noInput = await run(['mapping', 'explain', mapping, `${input}.missing`, '--line', '2']);
    expect(noInput).toMatchObject({
      exitCode: 2,
      stderr: expect.stringContaining(`${input}.missing: expected a readable CSV or .xlsx file, got ENOENT`) as unknown,
    });
    const noMapping = await run(['mapping', 'explain', `${mapping}.missing`, input, '--line', '2']);
    expect(noMapping).toMatchObject({
      exitCode: 2,
      stderr: expect.stringContaining('expected a readable mapping file, got ENOENT') as unknown,
    });
  });

  it('has help with an example', async () => {
    const result = await run(['mapping', 'explain', '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('$ bulk-disputes mapping explain mappings/generic.yaml export.csv --line 2');
  });

  it.each([
    ['a semicolon export', 'test'],
    ['the generic export', 'generic'],
  ])('gives the values and errors mapRow gives, for every row of %s', async (_name, which) => {
    const folder = await fixture({ 'test.yaml': testMapping, 'test.csv': testExport, 'generic.csv': genericExport });
    const mappingFile = which === 'test' ? join(folder, 'test.yaml') : genericMapping;
    const input = join(folder, `${which}.csv`);
    const mapping = await loadMapping(mappingFile);

    let rows = 0;
    for await (const row of readRows(createReadStream(input), mapping.csv)) {
      const result = await run(['mapping', 'explain', mappingFile, input, '--line', String(row.line), '--json']);
      const document = JSON.parse(result.stdout) as ExplainDocument;
      rows++;
      if ('error' in row) {
        expect(document).toMatchObject({ ok: false, csvError: row.error });
        continue;
      }
      const expected = mapRow(row.cells, mapping);
      expect(result.exitCode).toBe(expected.ok ? 0 : 1);
      if (expected.ok) {
        expect(valuesOf(document)).toEqual({
          shared: expected.row.shared,
          case: expected.row.case,
          claimId: expected.row.claimId,
          customFields: expected.row.customFields,
        });
        expect(document.evidence).toEqual(expected.row.evidence);
        expect(document.row).toEqual(expected.row);
      } else {
        expect(document.errors).toEqual(expected.errors);
        const failed = document.fields
          .filter((field) => !field.result.ok)
          .map(({ field, result: { code, message } }) => ({ field, code, message }));
        expect(failed).toEqual(expected.errors.filter((error) => error.field !== 'claim.key'));
      }
    }
    expect(rows).toBe(which === 'test' ? 5 : 4);
  });
});

interface ExplainDocument {
  ok: boolean;
  fields: {
    field: string;
    source: Record<string, unknown>;
    steps: { step: string; result: StepResult }[];
    result: StepResult;
  }[];
  evidence: MappedRow['evidence'];
  errors: FieldError[];
  row: MappedRow | null;
}
type StepResult =
  | { ok: true; value: string | number | boolean | null; code?: undefined; message?: undefined }
  | { ok: false; code: string; message: string };

/** The explained final values, shaped like mapRow's: fields left out (null) stay out. */
function valuesOf(document: ExplainDocument) {
  const shared: Record<string, unknown> = {};
  const caseFields: Record<string, unknown> = {};
  const customFields: Record<string, string> = {};
  let claimId: string | undefined;
  for (const { field, result } of document.fields) {
    if (!result.ok || result.value === null) continue;
    const [section = '', ...path] = field.split('.');
    if (section === 'claim') claimId = String(result.value);
    else if (section === 'custom_fields') customFields[path.join('.')] = String(result.value);
    else setIn(section === 'shared' ? shared : caseFields, path, result.value);
  }
  return { shared, case: caseFields, claimId, customFields };
}

function setIn(root: Record<string, unknown>, path: string[], value: unknown): void {
  let node = root;
  for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[path.at(-1) ?? ''] = value;
}
