import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify';
import { describe, expect, it } from 'vitest';
import { encodeText } from '../../../src/csv/encode.js';
import type { WrittenDialect } from '../../../src/csv/layout.js';
import { csvStringifyOptionsFor } from '../../helpers/results-csv-oracle.js';
import type { ResultRecord } from '../../../src/job-files/import/records.js';
import { statusColumns } from '../../../src/job-files/import/columns.js';
import { writeResultRecords } from '../../../src/job-files/import/write-results.js';
import { temporaryFolder } from '../../helpers/temporary-folder.js';

/**
 * The results CSV is written in batches of records (faster: a re-run of a finished import was
 * mostly results writing): the same bytes as csv-stringify's stream writing one record at a time,
 * which the writer used before and serves as the oracle here, across batch boundaries, in every
 * kind of dialect; and a write that fails leaves nothing behind.
 */

/** Rows whose cells need quoting now and then: the dialect's delimiter and quote, line breaks, a formula. */
function records(count: number): ResultRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    idx: index,
    line: index + 2,
    source: JSON.stringify([
      `ref ${index}`,
      index % 7 === 0 ? 'a;b,"c"\tq\'d' : 'plain',
      index % 11 === 0 ? 'two\r\nlines\nhere' : 'ü € 1,50',
      index % 13 === 0 ? '=SUM(A1)' : '',
    ]),
    claim_key: JSON.stringify([`K${index % 97}`]),
    case_id: `CASE-${index}`,
    file_ids: null,
    changed_fields: null,
    warnings: null,
    outcome: 'created',
    error_code: null,
    error_message: null,
    error_field: null,
    http_status: 201,
    claim_id: `CLM-${index % 97}`,
    step: 'done',
    attempts: 1,
    claim_http_status: 201,
    claim_error_code: null,
    claim_error_message: null,
    claim_error_field: null,
  }));
}

const sourceColumns = ['ref', 'note', 'amount', 'formula'];

/** What csv-stringify's stream writes for the same cells, one record at a time, then encoded. */
async function oracle(dialect: WrittenDialect, rows: readonly ResultRecord[]): Promise<Buffer> {
  const utf8 = dialect.encoding === 'utf-8';
  const csv = stringify({ ...csvStringifyOptionsFor(dialect), bom: utf8 && dialect.byteOrderMark });
  const chunks: string[] = [];
  csv.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const ended = new Promise((resolve) => csv.on('end', resolve));
  csv.write([...statusColumns, ...sourceColumns]);
  for (const row of rows) {
    const source = JSON.parse(row.source) as string[];
    const formula = source[3] === '' ? '' : `'${source[3] ?? ''}`;
    csv.write([
      String(row.line),
      row.claim_key === null ? '' : (JSON.parse(row.claim_key) as string[]).join('|'),
      row.claim_id ?? '',
      row.case_id ?? '',
      'created',
      '',
      '',
      '',
      '201',
      '1',
      '',
      '',
      '',
      source[0] ?? '',
      source[1] ?? '',
      source[2] ?? '',
      formula,
    ]);
  }
  csv.end();
  await ended;
  const text = chunks.join('');
  if (utf8) return Buffer.from(text, 'utf8');
  return Buffer.concat([
    dialect.byteOrderMark ? encodeText('\uFEFF', dialect.encoding) : Buffer.alloc(0),
    encodeText(text, dialect.encoding),
  ]);
}

const dialects: [string, WrittenDialect][] = [
  ['comma, LF, UTF-8', { delimiter: ',', quote: '"', encoding: 'utf-8', lineEnding: '\n', byteOrderMark: false }],
  [
    'semicolon, CRLF, UTF-8 with BOM',
    { delimiter: ';', quote: '"', encoding: 'utf-8', lineEnding: '\r\n', byteOrderMark: true },
  ],
  [
    'tab, CRLF, UTF-16LE with BOM',
    { delimiter: '\t', quote: '"', encoding: 'utf-16le', lineEnding: '\r\n', byteOrderMark: true },
  ],
  [
    'semicolon, LF, windows-1252',
    { delimiter: ';', quote: "'", encoding: 'windows-1252', lineEnding: '\n', byteOrderMark: false },
  ],
];

describe('writeResultRecords', () => {
  it.each(dialects)(
    'writes %s byte for byte as a record-at-a-time stream, across batch boundaries',
    async (_name, dialect) => {
      const file = join(await temporaryFolder('write-results-'), 'results.csv');
      // 1,201 rows: the header and two full batches of 500, then a short one.
      const rows = records(1_201);
      const summary = await writeResultRecords(
        rows,
        sourceColumns,
        file,
        { kind: 'csv', dialect },
        { cellsMasked: true },
      );
      expect(summary).toMatchObject({ rows: 1_201, byOutcome: { created: 1_201 }, allOk: true });
      expect(readFileSync(file).equals(await oracle(dialect, rows))).toBe(true);
    },
  );

  it("masks every cell and message of a journal staged before card numbers were masked, and leaves a masked journal's cells as staged", async () => {
    const dialect = dialects[0]?.[1];
    if (dialect === undefined) throw new Error('test: a dialect');
    const folder = await temporaryFolder('write-results-');
    const [first] = records(1);
    if (first === undefined) throw new Error('test: a record');
    // An order number that passes as a card number, kept by the mapping's not_card_numbers, in a masked journal.
    const record = {
      ...first,
      source: JSON.stringify(['ref', 'carte 4970101000000012', '1,50', '']),
      error_message: 'got 4970101000000012',
    };
    const earlier = join(folder, 'earlier.csv');
    await writeResultRecords([record], sourceColumns, earlier, { kind: 'csv', dialect }, { cellsMasked: false });
    expect(readFileSync(earlier, 'utf8')).not.toContain('4970101000000012');
    expect(readFileSync(earlier, 'utf8')).toContain('carte 497010******0012');
    const masked = join(folder, 'masked.csv');
    await writeResultRecords([record], sourceColumns, masked, { kind: 'csv', dialect }, { cellsMasked: true });
    expect(readFileSync(masked, 'utf8')).toContain('carte 4970101000000012');
  });

  it('writes the header alone for no rows', async () => {
    const dialect = dialects[0]?.[1];
    if (dialect === undefined) throw new Error('test: a dialect');
    const file = join(await temporaryFolder('write-results-'), 'results.csv');
    await writeResultRecords([], sourceColumns, file, { kind: 'csv', dialect }, { cellsMasked: true });
    expect(readFileSync(file, 'utf8')).toBe(`${[...statusColumns, ...sourceColumns].join(',')}\n`);
  });

  it('rejects when the file cannot be written, and leaves no temporary file', async () => {
    const dialect = dialects[1]?.[1];
    if (dialect === undefined) throw new Error('test: a dialect');
    const directory = await temporaryFolder('write-results-');
    await expect(
      writeResultRecords(
        records(3),
        sourceColumns,
        join(directory, 'missing', 'results.csv'),
        { kind: 'csv', dialect },
        { cellsMasked: true },
      ),
    ).rejects.toThrow(/ENOENT/);
    expect(readdirSync(directory)).toEqual([]);
  });
});
