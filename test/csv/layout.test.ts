import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { csvDialectSchema, type CsvDialectInput } from '../../src/csv/dialect.js';
import { createEncoder, encodeText } from '../../src/csv/encode.js';
import { LineEndingProbe, type FileLayout } from '../../src/csv/layout.js';
import { readRows } from '../../src/csv/read-rows.js';
import type { CsvRow } from '../../src/csv/records.js';

/**
 * What the reader finds beyond the mapping's dialect: the input's line ending and
 * byte order mark; and the encoder that writes them again.
 */

async function layoutOf(
  bytes: Buffer,
  dialect: CsvDialectInput = {},
  cuts: readonly number[] = [],
): Promise<{ layout: FileLayout | undefined; rows: CsvRow[]; headerAfterLayout: boolean }> {
  const edges = [0, ...cuts, bytes.length];
  const input = Readable.from(edges.slice(1).map((end, position) => bytes.subarray(edges[position], end)));
  let layout: FileLayout | undefined;
  let headerAfterLayout = false;
  const rows: CsvRow[] = [];
  const options = {
    onLayout: (found: FileLayout) => {
      expect(layout, 'reported once').toBeUndefined();
      layout = found;
    },
    onHeader: () => {
      headerAfterLayout = layout !== undefined;
    },
  };
  for await (const row of readRows(input, csvDialectSchema.parse(dialect), options)) rows.push(row);
  return { layout, rows, headerAfterLayout };
}

const utf8Bom = Buffer.from([0xef, 0xbb, 0xbf]);

describe("readRows: the input's layout", () => {
  it.each([
    {
      name: 'CRLF with a UTF-8 BOM',
      bytes: Buffer.concat([utf8Bom, Buffer.from('a;b\r\n1;2\r\n')]),
      dialect: { delimiter: ';' },
      expected: { lineEnding: '\r\n', byteOrderMark: true },
    },
    {
      name: 'LF without a BOM',
      bytes: Buffer.from('a,b\n1,2\n'),
      dialect: {},
      expected: { lineEnding: '\n', byteOrderMark: false },
    },
    {
      name: 'a header without a line break',
      bytes: Buffer.from('a,b'),
      dialect: {},
      expected: { lineEnding: '\n', byteOrderMark: false },
    },
    // Excel writes LF inside cells and CRLF between records.
    {
      name: 'LF inside a quoted header cell, CRLF after it',
      bytes: Buffer.from('"a\nx",b\r\n1,2\r\n'),
      dialect: {},
      expected: { lineEnding: '\r\n', byteOrderMark: false },
    },
    {
      name: 'a doubled quote in the header',
      bytes: Buffer.from('"a""\n",b\n1,2\n'),
      dialect: {},
      expected: { lineEnding: '\n', byteOrderMark: false },
    },
    {
      name: 'UTF-16LE with its BOM',
      bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\tb\r\n1\t2\r\n', 'utf16le')]),
      dialect: { delimiter: '\t', encoding: 'utf-16le' as const },
      expected: { lineEnding: '\r\n', byteOrderMark: true },
    },
    {
      name: 'windows-1252 (no BOM there)',
      bytes: encodeText('ä;b\r\n€;2\r\n', 'windows-1252'),
      dialect: { delimiter: ';', encoding: 'windows-1252' as const },
      expected: { lineEnding: '\r\n', byteOrderMark: false },
    },
  ])('$name', async ({ bytes, dialect, expected }) => {
    // Cut at every offset of the head too: the mark and the CR LF may arrive apart.
    for (const cuts of [[], [1], [2], [3], [4], [5]].filter((cut) => cut.every((offset) => offset < bytes.length))) {
      const { layout, rows, headerAfterLayout } = await layoutOf(bytes, dialect, cuts);
      expect(layout).toEqual(expected);
      expect(headerAfterLayout, 'known before the header is passed on').toBe(true);
      expect(rows.every((row) => !('error' in row))).toBe(true);
    }
  });

  it('reads a doubled quote of any quote character, as the dialect says', async () => {
    const { rows } = await layoutOf(Buffer.from("a,b\n'it''s','x\"y'\n"), { quote: "'" });
    expect(rows).toEqual([{ line: 2, index: 0, cells: { a: "it's", b: 'x"y' }, raw: ["it's", 'x"y'] }]);
  });
});

describe('LineEndingProbe', () => {
  it('finds the ending of a CRLF split between chunks', () => {
    const probe = new LineEndingProbe('"');
    expect(probe.scan('a,b\r')).toBeUndefined();
    expect(probe.scan('\n1,2')).toBe('\r\n');
    expect(probe.scan('\n')).toBe('\r\n');
  });
});

describe("the results' encoder", () => {
  it.each([
    { encoding: 'utf-8' as const, byteOrderMark: true, bytes: [0xef, 0xbb, 0xbf, 0x6c, 0x6c] },
    { encoding: 'utf-8' as const, byteOrderMark: false, bytes: [0x6c, 0x6c] },
    { encoding: 'utf-16le' as const, byteOrderMark: true, bytes: [0xff, 0xfe, 0x6c, 0x00, 0x6c, 0x00] },
    { encoding: 'utf-16le' as const, byteOrderMark: false, bytes: [0x6c, 0x00, 0x6c, 0x00] },
    // A single-byte encoding has no mark.
    { encoding: 'windows-1252' as const, byteOrderMark: true, bytes: [0x6c, 0x6c] },
  ])(
    '$encoding with byteOrderMark $byteOrderMark: the mark once, before the first chunk',
    async ({ encoding, byteOrderMark, bytes }) => {
      const chunks: Buffer[] = [];
      const encoder = createEncoder(encoding, byteOrderMark);
      encoder.on('data', (chunk: Buffer) => chunks.push(chunk));
      encoder.write('l');
      encoder.write('l');
      encoder.end();
      await new Promise((resolve) => encoder.on('end', resolve));
      expect([...Buffer.concat(chunks)]).toEqual(bytes);
    },
  );
});
