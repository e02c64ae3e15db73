import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { csvDialectSchema, type CsvDialectInput } from '../../src/csv/dialect.js';
import { CsvFormatError } from '../../src/csv/errors.js';
import { readRows } from '../../src/csv/read-rows.js';
import type { CsvRow } from '../../src/csv/records.js';

/** A real byte stream that delivers `bytes` cut at the given offsets. */
function streamOf(bytes: Buffer, cuts: readonly number[] = []): Readable {
  const edges = [0, ...cuts, bytes.length];
  return Readable.from(edges.slice(1).map((end, position) => bytes.subarray(edges[position], end)));
}

async function collect(bytes: Buffer, dialect: CsvDialectInput = {}, cuts: readonly number[] = []): Promise<CsvRow[]> {
  const rows: CsvRow[] = [];
  for await (const row of readRows(streamOf(bytes, cuts), csvDialectSchema.parse(dialect))) rows.push(row);
  return rows;
}

async function failure(bytes: Buffer, dialect: CsvDialectInput = {}): Promise<CsvFormatError> {
  const error: unknown = await collect(bytes, dialect).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof CsvFormatError)) throw new Error(`expected a CsvFormatError, got ${String(error)}`);
  return error;
}

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('readRows: byte order marks and encodings', () => {
  it('never lets a UTF-8 BOM reach the first header, even split across chunks', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8('name,amount\nÉlodie,1\n')]);
    for (const cuts of [[], [1], [2], [1, 2], [3]]) {
      const rows = await collect(bytes, {}, cuts);
      expect(rows).toEqual([{ line: 2, index: 0, cells: { name: 'Élodie', amount: '1' }, raw: ['Élodie', '1'] }]);
    }
  });

  it('never lets a UTF-16LE BOM reach the first header', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name;amount\r\nZoë;€5\r\n', 'utf16le')]);
    const rows = await collect(bytes, { encoding: 'utf-16le', delimiter: ';' }, [1, 5, 6]);
    expect(rows).toEqual([{ line: 2, index: 0, cells: { name: 'Zoë', amount: '€5' }, raw: ['Zoë', '€5'] }]);
  });

  it('refuses a file whose BOM belongs to another encoding than declared', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8('name\nx\n')]);
    const error = await failure(bytes, { encoding: 'windows-1252' });
    expect(error.code).toBe('csv_encoding');
    expect(error.message).toContain('UTF-8 byte order mark');
  });

  it('decodes a multi-byte UTF-8 character split across chunks', async () => {
    const bytes = utf8('name\n€uro\n');
    const rows = await collect(bytes, {}, [5, 6, 7]);
    expect(rows).toEqual([{ line: 2, index: 0, cells: { name: '€uro' }, raw: ['€uro'] }]);
  });

  it('decodes windows-1252 é and €, including 0x80-0x9F split across chunks', async () => {
    // "café;€ 12" with smart quotes: 0x93 and 0x94 are “ and ” in windows-1252.
    const bytes = Buffer.concat([
      Buffer.from('name;amount\ncaf', 'latin1'),
      Buffer.from([0xe9, 0x93, 0x94, 0x3b, 0x80]),
      Buffer.from(' 12\n', 'latin1'),
    ]);
    for (const cuts of [[], [15, 16]]) {
      const rows = await collect(bytes, { encoding: 'windows-1252', delimiter: ';' }, cuts);
      expect(rows).toEqual([{ line: 2, index: 0, cells: { name: 'café“”', amount: '€ 12' }, raw: ['café“”', '€ 12'] }]);
    }
  });

  it('decodes latin1 as ISO-8859-1', async () => {
    const bytes = Buffer.from('name\nNiño\n', 'latin1');
    const rows = await collect(bytes, { encoding: 'latin1' });
    expect(rows).toEqual([{ line: 2, index: 0, cells: { name: 'Niño' }, raw: ['Niño'] }]);
  });

  it('refuses bytes that are not valid in the declared encoding', async () => {
    const error = await failure(Buffer.from([...utf8('name\nok\n'), 0xe9, 0x0a]));
    expect(error.code).toBe('csv_encoding');
    expect(error.line).toBe(3);
  });
});

describe('readRows: records and lines', () => {
  it('keeps CRLF, LF and quoted newlines, and line numbers after them', async () => {
    const text = 'id,note\r\n1,"two\r\nlines"\r\n2,plain\n3,"a\nb\nc"\r\n4,last';
    const bytes = utf8(text);
    // Cut inside the CRLF after the header and inside a quoted CRLF.
    const rows = await collect(bytes, {}, [8, 20]);
    expect(rows.map((row) => [row.line, row.index, 'cells' in row ? row.cells.note : row.error.code])).toEqual([
      [2, 0, 'two\r\nlines'],
      [4, 1, 'plain'],
      [5, 2, 'a\nb\nc'],
      [8, 3, 'last'],
    ]);
  });

  it('reads a semicolon delimiter, another quote character and trims when asked', async () => {
    const rows = await collect(utf8(" id ; name \n1;'a;b' \n"), { delimiter: ';', quote: "'", trim: true });
    expect(rows).toEqual([{ line: 2, index: 0, cells: { id: '1', name: 'a;b' }, raw: ['1', 'a;b'] }]);
  });

  it('keys cells by column number without a header', async () => {
    const rows = await collect(utf8('a,b\nc,d\n'), { header: false });
    expect(rows.map((row) => ('cells' in row ? row.cells : row.error))).toEqual([
      { '1': 'a', '2': 'b' },
      { '1': 'c', '2': 'd' },
    ]);
  });

  it('reports ragged, blank and stray-quote records with their line, in order, none dropped', async () => {
    const text = 'a,b,c\n1,2,3\n4,5\n\n6,7,8,9\n"x\ny",z"w"q,1\n10,11,12\n';
    const rows = await collect(utf8(text));
    expect(rows.map((row) => [row.line, row.index, 'cells' in row ? row.raw.join('|') : row.error.code])).toEqual([
      [2, 0, '1|2|3'],
      [3, 1, 'csv_column_count'],
      [4, 2, 'csv_blank_line'],
      [5, 3, 'csv_column_count'],
      [6, 4, 'csv_quote'],
      [8, 5, '10|11|12'],
    ]);
    expect(rows[1]).toMatchObject({ error: { message: 'record: expected 3 columns as in the header, got 2' } });
  });

  it('drops blank lines at the end of the file, and reports those a record follows', async () => {
    const rows = await collect(utf8('a,b\n1,2\n\n\n3,4\n\n\r\n\n'));
    expect(rows.map((row) => [row.line, 'cells' in row ? 'row' : row.error.code])).toEqual([
      [2, 'row'],
      [3, 'csv_blank_line'],
      [4, 'csv_blank_line'],
      [5, 'row'],
    ]);
  });

  it('reads two stray-quote records in a row as two row failures', async () => {
    const rows = await collect(utf8('a,b\n1,x"\n1,x"y\n2,3\n'));
    expect(rows.map((row) => [row.line, 'cells' in row ? 'row' : row.error.code])).toEqual([
      [2, 'csv_quote'],
      [3, 'csv_quote'],
      [4, 'row'],
    ]);
  });
});

describe('readRows: run-level failures', () => {
  it('refuses a duplicate header naming both columns', async () => {
    const error = await failure(utf8('id,amount,note,amount\n1,2,3,4\n'));
    expect(error.code).toBe('csv_header_duplicate');
    expect(error.message).toBe('line 1: header: expected unique column names, got "amount" in column 2 and column 4');
  });

  it('refuses a file with old Mac line ends (lone CR) rather than reading it as a header and no rows', async () => {
    const error = await failure(utf8('dispute_ref,transaction_ref\rD1,T1\r'));
    expect(error.code).toBe('csv_line_endings');
    expect(error.message).toBe(
      'line 1: header: expected lines ending in LF or CRLF, got a lone CR in column 2 ("transaction_ref\\rD1"); save the file with Windows or Unix line endings',
    );
  });

  it('refuses an empty header cell', async () => {
    expect((await failure(utf8('id,,note\n'))).code).toBe('csv_header_empty');
  });

  it('refuses an empty file, and a file that is only a BOM', async () => {
    expect((await failure(Buffer.alloc(0))).code).toBe('csv_empty');
    expect((await failure(Buffer.from([0xef, 0xbb, 0xbf]))).code).toBe('csv_empty');
  });

  it('yields nothing for a header-only file', async () => {
    expect(await collect(utf8('id,amount\r\n'))).toEqual([]);
  });

  it('stops at an unclosed quote, naming the line where the record starts', async () => {
    const error = await failure(utf8('a,b\n1,2\n"3,4\n5,6\n'));
    expect(error.code).toBe('csv_quote_not_closed');
    expect(error.line).toBe(3);
  });

  it('stops at text after a closing quote, which the parser cannot recover from', async () => {
    const error = await failure(utf8('a,b\n1,2\n"3"x,4\n5,6\n'));
    expect(error.code).toBe('csv_quote_unrecoverable');
    expect(error.line).toBe(3);
  });
});
