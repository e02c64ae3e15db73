import type { WrittenDialect } from './layout.js';

/** What a written CSV's records need of its dialect. */
export type RecordsDialect = Pick<WrittenDialect, 'delimiter' | 'quote' | 'lineEnding'>;

/**
 * Records as CSV text in the dialect of the results file (its input's): a cell is quoted when it
 * holds the delimiter, the quote or any line break, a quote in it doubled, and every record ends
 * in the line ending. Any line break is quoted, whichever the line ending: a lone LF or CR left
 * bare would end the record for most readers and spreadsheets.
 *
 * These are the bytes csv-stringify writes with the same rules (test/csv/records-text.test.ts
 * holds them to it), written here instead: csv-stringify makes several objects for every cell
 * (its cast, its quoting checks), and the results of a 100,000-row dry run allocated 2 GB in it,
 * with the garbage collection that follows about a sixth of the run.
 */
export function csvRecordsText(records: readonly (readonly string[])[], dialect: RecordsDialect): string {
  const { delimiter, quote, lineEnding } = dialect;
  const doubled = quote + quote;
  let text = '';
  for (const record of records) {
    for (let index = 0; index < record.length; index++) {
      const cell = record[index] ?? '';
      if (index > 0) text += delimiter;
      const quoted = cell.includes(delimiter) || cell.includes(quote) || cell.includes('\n') || cell.includes('\r');
      text += quoted ? quote + cell.replaceAll(quote, doubled) + quote : cell;
    }
    text += lineEnding;
  }
  return text;
}
