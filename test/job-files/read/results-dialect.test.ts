import { describe, expect, it } from 'vitest';
import { encodeText } from '../../../src/csv/encode.js';
import { legacyStatusLayouts, statusColumns } from '../../../src/job-files/import/columns.js';
import { migrateColumns } from '../../../src/job-files/migrate/columns.js';
import { detectResultsDialect } from '../../../src/job-files/read/results-dialect.js';
import { encodingOf } from '../../../src/csv/sniff-encoding.js';

/**
 * `report` reads a results CSV in the dialect it was written in, told nothing: the
 * status header gives the delimiter, the bytes the encoding, a trial read the quote.
 */

const header = (delimiter: string) => [...statusColumns, 'ref', 'betrag'].join(delimiter);
const row = (delimiter: string, quote: string, message: string) =>
  [
    '2',
    'D-1',
    'CLM-D-1',
    'D-1-1',
    'invalid',
    'amount_format',
    `${quote}${message}${quote}`,
    '',
    '',
    '',
    '',
    '',
    '',
    'D-1',
    '9,99',
  ].join(delimiter);

describe('detectResultsDialect', () => {
  it.each([
    {
      name: '";" + CRLF + UTF-8 BOM',
      bytes: Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(`${header(';')}\r\n${row(';', '"', 'got "9;99"'.replaceAll('"', '""'))}\r\n`),
      ]),
      expected: { delimiter: ';', quote: '"', encoding: 'utf-8' },
    },
    {
      name: 'tab + UTF-16LE BOM',
      bytes: Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from(`${header('\t')}\r\n${row('\t', '', 'x')}\r\n`, 'utf16le'),
      ]),
      expected: { delimiter: '\t', quote: '"', encoding: 'utf-16le' },
    },
    {
      name: 'UTF-16LE without a BOM',
      bytes: Buffer.from(`${header(',')}\n`, 'utf16le'),
      expected: { delimiter: ',', quote: '"', encoding: 'utf-16le' },
    },
    {
      name: '";" windows-1252 (ü, € are not UTF-8)',
      bytes: encodeText(`${header(';')}\r\n${row(';', '', 'Betrag über 5 €')}\r\n`, 'windows-1252'),
      expected: { delimiter: ';', quote: '"', encoding: 'windows-1252' },
    },
    {
      name: '"|" quoted with \'',
      bytes: Buffer.from(`${header('|')}\n${row('|', "'", 'a|b')}\n`),
      expected: { delimiter: '|', quote: "'", encoding: 'utf-8' },
    },
    {
      name: 'a results file written before changed_fields',
      bytes: Buffer.from(
        `${[...(legacyStatusLayouts[1] ?? []), 'ref'].join(';')}\r\n2;D-1;CLM-D-1;D-1-1;filed;;;;202;1;;D-1\r\n`,
      ),
      expected: { delimiter: ';', quote: '"', encoding: 'utf-8' },
    },
    {
      name: 'migrate-v1 results',
      bytes: Buffer.from(`${migrateColumns.join(',')}\n`),
      expected: { delimiter: ',', quote: '"', encoding: 'utf-8' },
    },
    {
      name: 'not a results file: the plain dialect, for the reader to refuse',
      bytes: Buffer.from('name;amount\nx;1\n'),
      expected: { delimiter: ',', quote: '"', encoding: 'utf-8' },
    },
  ])('$name', ({ bytes, expected }) => {
    expect(detectResultsDialect(bytes, true)).toEqual(expected);
  });

  it('takes a sample cut inside a character or a quoted multi-line cell for what it is', () => {
    const text = `${header(';')}\r\n${row(';', '"', 'eins\r\nzwei ü')}\r\n`;
    const bytes = Buffer.from(text);
    const cutInCell = bytes.indexOf('zwei');
    const cutInCharacter = bytes.indexOf(Buffer.from('ü')) + 1;
    for (const cut of [cutInCell, cutInCharacter]) {
      expect(detectResultsDialect(bytes.subarray(0, cut), false)).toEqual({
        delimiter: ';',
        quote: '"',
        encoding: 'utf-8',
      });
    }
    expect(encodingOf(bytes.subarray(0, cutInCharacter), true)).toBe('windows-1252');
  });
});
