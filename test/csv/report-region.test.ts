import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { csvDialectSchema, type CsvDialectInput } from '../../src/csv/dialect.js';
import { CsvFormatError } from '../../src/csv/errors.js';
import { readRecordBatches, readRows } from '../../src/csv/read-rows.js';
import type { CsvRow } from '../../src/csv/records.js';
import { reportLayoutSchema, type ReportLayout } from '../../src/csv/report-layout.js';
import { describeLinesOutside, type LinesOutside } from '../../src/csv/report-region.js';
import { isResultsHeader } from '../../src/job-files/import/columns.js';

/** A report's bytes in chunks of `chunk` bytes, so that no record boundary is special. */
function streamOf(text: string, chunk = 7): Readable {
  const bytes = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += chunk) parts.push(bytes.subarray(start, start + chunk));
  return Readable.from(parts);
}

interface Read {
  rows: CsvRow[];
  header: readonly string[] | undefined;
  outside: LinesOutside | undefined;
}

async function read(text: string, report: unknown, dialect: CsvDialectInput = {}): Promise<Read> {
  const result: Read = { rows: [], header: undefined, outside: undefined };
  const layout: ReportLayout = reportLayoutSchema.parse(report);
  const rows = readRows(streamOf(text), csvDialectSchema.parse(dialect), {
    report: layout,
    readAsIs: isResultsHeader,
    onHeader: (header) => (result.header = header),
    onLinesOutside: (outside) => (result.outside = outside),
  });
  for await (const row of rows) result.rows.push(row);
  return result;
}

async function failure(text: string, report: unknown): Promise<CsvFormatError> {
  const error: unknown = await read(text, report).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof CsvFormatError)) throw new Error(`expected a CsvFormatError, got ${String(error)}`);
  return error;
}

const cellsOf = (rows: readonly CsvRow[]) => rows.map((row) => ('cells' in row ? row.cells : row.error));
const linesOf = (rows: readonly CsvRow[]) => rows.map((row) => row.line);

// In the shape of a processor's dispute report: key=value title lines, the table, the first title
// line again as a trailer, then the blank lines its generator pads the file with.
const keyValueReport = [
  'EntityId=7731,Frequency=daily',
  'EntityId=7731,ReportType=Disputes,From=2026-11-01,To=2026-11-30',
  'Card,ARN,Amount',
  '411111XXXXXX1111,"74000000000000000000001","1.50000000"',
  '411111XXXXXX2222,"74000000000000000000002","9.99000000"',
  'EntityId=7731,Frequency=daily',
  ...Array.from({ length: 40 }, () => ''),
].join('\r\n');

describe('a report layout: title lines, trailers, blank lines', () => {
  it('reads the table under title lines and above a trailer, every line outside counted by why', async () => {
    const { rows, header, outside } = await read(keyValueReport, {
      header: { starts_with: 'Card' },
      trailer: { starts_with: 'EntityId=' },
    });
    expect(header).toEqual(['Card', 'ARN', 'Amount']);
    expect(linesOf(rows)).toEqual([4, 5]);
    expect(rows.map((row) => row.index)).toEqual([0, 1]);
    expect(cellsOf(rows)[0]).toEqual({
      Card: '411111XXXXXX1111',
      ARN: '74000000000000000000001',
      Amount: '1.50000000',
    });
    // The file ends with a line break after the 40th empty line: 40 blank lines, the last one unterminated.
    expect(outside).toEqual({ beforeHeader: 2, blank: 39, repeatedHeader: 0, trailer: 1, otherTypes: {} });
    expect(describeLinesOutside(outside as LinesOutside)).toBe('2 before the header, 1 trailer line, 39 blank lines');
  });

  it('finds the header by its line, or by a pattern, alike', async () => {
    const byLine = await read(keyValueReport, { header: { line: 3 }, trailer: { lines: 1 } });
    const byPattern = await read(keyValueReport, {
      header: { matches: '^Card,ARN' },
      trailer: { matches: '^EntityId=' },
    });
    expect(cellsOf(byLine.rows)).toEqual(cellsOf(byPattern.rows));
    expect(linesOf(byLine.rows)).toEqual([4, 5]);
    expect(byLine.outside?.trailer).toBe(1);
  });

  it('matches a header whose names are quoted by their text without the quotes', async () => {
    const { rows } = await read('Report of 2026-11-30\n"Card","ARN"\n4111,7400\n', {
      header: { starts_with: 'Card,ARN' },
    });
    expect(cellsOf(rows)).toEqual([{ Card: '4111', ARN: '7400' }]);
  });

  it('holds back the last lines of a trailer given as a count, through batches of any size', async () => {
    const body = Array.from({ length: 3000 }, (_, index) => `${index},x`).join('\n');
    const text = `id,v\n${body}\nTOTAL,3000\nEND\n`;
    const rows: number[] = [];
    let outside: LinesOutside | undefined;
    const batches = readRecordBatches(streamOf(text, 4096), csvDialectSchema.parse({}), {
      report: reportLayoutSchema.parse({ trailer: { lines: 2 } }),
      onLinesOutside: (found) => (outside = found),
    });
    for await (const batch of batches) for (const record of batch) rows.push(record.line);
    expect(rows).toHaveLength(3000);
    expect(rows.at(-1)).toBe(3001);
    expect(outside?.trailer).toBe(2);
  });

  it('skips blank lines anywhere, and the header printed again on each page', async () => {
    const text = 'Disputes\n\nid,v\n1,a\n\n\nid,v\n2,b\n\nid,v\n3,c\n';
    const { rows, outside } = await read(text, { header: { starts_with: 'id,' } });
    expect(cellsOf(rows)).toEqual([
      { id: '1', v: 'a' },
      { id: '2', v: 'b' },
      { id: '3', v: 'c' },
    ]);
    expect(linesOf(rows)).toEqual([4, 8, 11]);
    expect(outside).toMatchObject({ beforeHeader: 1, blank: 4, repeatedHeader: 2, trailer: 0 });
  });

  it('reads a concatenated report block by block: a header after a trailer starts the next block', async () => {
    const block = (first: number) => `BANK DISPUTES\nid,v\n${first},a\n${first + 1},b\nTOTAL,2\n`;
    const { rows, outside } = await read(block(1) + block(3), {
      header: { starts_with: 'id,' },
      trailer: { starts_with: 'TOTAL' },
    });
    expect(rows.map((row) => ('cells' in row ? row.cells.id : ''))).toEqual(['1', '2', '3', '4']);
    // The second block's title line follows the first block's trailer: it is part of that trailer.
    expect(outside).toMatchObject({ beforeHeader: 1, trailer: 3, repeatedHeader: 1 });
  });

  it('reads only the records of the types asked for, the others counted by type', async () => {
    const text = [
      'Record Type,Case,Amount',
      'Detail,C1,10.00',
      'Summary,2',
      'Detail,C2,5.00',
      'Adjustment,C1,-1.00',
      'Summary,1',
    ].join('\n');
    const { rows, outside } = await read(text, { record_type: { column: 'Record Type', keep: ['Detail'] } });
    expect(cellsOf(rows)).toEqual([
      { 'Record Type': 'Detail', Case: 'C1', Amount: '10.00' },
      { 'Record Type': 'Detail', Case: 'C2', Amount: '5.00' },
    ]);
    expect(outside?.otherTypes).toEqual({ Summary: 2, Adjustment: 1 });
    expect(describeLinesOutside(outside as LinesOutside)).toBe(
      '2 records of type "Summary", 1 record of type "Adjustment"',
    );
  });

  it('reads a summary section before the detail section by the detail header', async () => {
    const text = 'Summary\nStatus,Count\nOpen,2\nWon,1\n\nDetails\nCase,ARN,Amount\nC1,7401,1.00\nC2,7402,2.00\n';
    const { rows, outside } = await read(text, { header: { starts_with: 'Case,ARN' } });
    expect(cellsOf(rows)).toEqual([
      { Case: 'C1', ARN: '7401', Amount: '1.00' },
      { Case: 'C2', ARN: '7402', Amount: '2.00' },
    ]);
    expect(outside).toMatchObject({ beforeHeader: 5, blank: 1 });
  });

  it('keeps a row of the table with a wrong field count a row failure, never outside', async () => {
    const { rows } = await read('Title\nid,v\n1,a\n2\n3,c\nTOTAL\n', {
      header: { starts_with: 'id' },
      trailer: { matches: '^TOTAL$' },
    });
    expect(rows.map((row) => ('error' in row ? row.error.code : 'ok'))).toEqual(['ok', 'csv_column_count', 'ok']);
  });

  it('counts an unreadable title line (a stray quote) outside, not as a failure of the run', async () => {
    const { rows, outside } = await read('Report "Disputes" of November\nid,v\n1,a\n', {
      header: { starts_with: 'id' },
    });
    expect(cellsOf(rows)).toEqual([{ id: '1', v: 'a' }]);
    expect(outside?.beforeHeader).toBe(1);
  });

  it('reads one of our results files fed back as it is: its own header first, no title line', async () => {
    const results =
      'line,claim_key,claim_id,case_id,outcome,error_code,error_message,error_field,http_status,attempts,file_ids,changed_fields,warnings,Card,ARN,Amount\n4,k,,,invalid,,,,,0,,,,4111,7401,1.00\n';
    const { rows, outside } = await read(results, { header: { starts_with: 'Card' }, trailer: { lines: 1 } });
    expect(rows).toHaveLength(1);
    expect(outside).toBeUndefined();
  });
});

describe('a report layout that does not fit the file', () => {
  it('stops when no line starts as the header is said to', async () => {
    const error = await failure('Title\nname,v\n1,a\n', { header: { starts_with: 'Card' } });
    expect(error.code).toBe('csv_header_not_found');
    expect(error.message).toBe(
      'line 4: header: expected a line starting with "Card" (report.header.starts_with), got none in the first 3 records',
    );
  });

  it('stops after a bounded search, not at the end of a large file', async () => {
    const text = Array.from({ length: 5000 }, (_, index) => `${index},x`).join('\n');
    const error = await failure(text, { header: { starts_with: 'Card' } });
    expect(error.code).toBe('csv_header_not_found');
    expect(error.line).toBe(1001);
  });

  it('stops when the record type column is not in the header', async () => {
    const error = await failure('id,v\n1,a\n', { record_type: { column: 'Type', keep: ['D'] } });
    expect(error.code).toBe('csv_record_type_column');
    expect(error.message).toContain('expected the column "Type" (report.record_type.column)');
  });

  it('refuses a layout that says two things or a pattern that does not compile', () => {
    expect(() => reportLayoutSchema.parse({ header: { line: 2, starts_with: 'x' } })).toThrow(
      'expected exactly one of line, starts_with and matches',
    );
    expect(() => reportLayoutSchema.parse({ trailer: { matches: '(' } })).toThrow('which does not compile');
  });
});

describe('a report layout is bounded', () => {
  it('holds back at most 1000 rows for a trailer given as a count', () => {
    expect(() => reportLayoutSchema.parse({ trailer: { lines: 1001 } })).toThrow();
    expect(reportLayoutSchema.parse({ trailer: { lines: 1000 } })).toEqual({ trailer: { lines: 1000 } });
  });
});
