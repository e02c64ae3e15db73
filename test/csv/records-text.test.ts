import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvRecordsText, type RecordsDialect } from '../../src/csv/records-text.js';
import { csvStringifyOptionsFor } from '../helpers/results-csv-oracle.js';

/**
 * The results' records as text (src/csv/records-text.ts): the bytes csv-stringify writes under the
 * same rules, for any cells in any dialect a results file takes, and what reads back as the cells.
 */

const dialects: RecordsDialect[] = [
  { delimiter: ',', quote: '"', lineEnding: '\n' },
  { delimiter: ';', quote: '"', lineEnding: '\r\n' },
  { delimiter: '\t', quote: '"', lineEnding: '\n' },
  { delimiter: '|', quote: "'", lineEnding: '\r\n' },
];

describe('csvRecordsText', () => {
  it('writes what csv-stringify writes with the same rules, for any cells in every dialect', () => {
    // Cells made mostly of what a dialect treats specially, so most are quoted or doubled.
    const cell = fc.string({
      unit: fc.oneof(fc.constantFrom(',', ';', '\t', '|', '"', "'", '\r', '\n', ' ', '='), fc.string({ maxLength: 1 })),
      maxLength: 12,
    });
    const records = fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(records, fc.constantFrom(...dialects), (cells, dialect) => {
        expect(csvRecordsText(cells, dialect)).toBe(stringify(cells, csvStringifyOptionsFor(dialect)));
      }),
      { numRuns: 2_000 },
    );
  });

  it.each(dialects)(
    'quotes the delimiter, the quote and every line break, and reads back ($delimiter, $quote)',
    (dialect) => {
      const { delimiter, quote, lineEnding } = dialect;
      const cells = [`a${delimiter}b`, `say "hi" it's`, 'lone\rcr', 'lone\nlf', 'cr\r\nlf', '', 'plain'];
      const text = csvRecordsText([cells, ['x', 'y', 'z', '', '', '', 'end']], dialect);
      expect(text.endsWith(lineEnding)).toBe(true);
      expect(text.startsWith(`${quote}a${delimiter}b${quote}${delimiter}`)).toBe(true);
      // Only the dialect's own line ending ends a record.
      expect(parse(text, { delimiter, quote, escape: quote, record_delimiter: lineEnding })).toEqual([
        cells,
        ['x', 'y', 'z', '', '', '', 'end'],
      ]);
    },
  );

  it('writes nothing for no records, and an empty cell bare', () => {
    expect(csvRecordsText([], dialects[0] ?? { delimiter: ',', quote: '"', lineEnding: '\n' })).toBe('');
    expect(csvRecordsText([['', 'a', '']], { delimiter: ',', quote: '"', lineEnding: '\n' })).toBe(',a,\n');
  });
});
