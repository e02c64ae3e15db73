import type { Options } from 'csv-stringify';
import type { WrittenDialect } from './layout.js';

/**
 * How every CSV this tool writes without an input to follow (exports, migrate-v1 results) is
 * stringified: LF line ends, no BOM, and a lone CR quoted like LF. Spreadsheets and most CSV
 * readers take a lone CR for a line break, and csv-stringify quotes only its own record delimiter
 * (found by the CSV fuzzing of the reliability tests: an unquoted CR split one results row in two).
 */
export const csvWriteOptions = { bom: false, record_delimiter: 'unix', quoted_match: /\r/ } as const satisfies Options;

/**
 * The results CSV in its input's dialect: the input's delimiter, quote and line ending, so that it
 * reads back through the same mapping and opens in the same spreadsheet locale. Any line break in a
 * cell is quoted, whichever the record delimiter: csv-stringify quotes only its own (`\r\n`), and a
 * lone LF or CR left bare would end the record for every reader. A quote in a cell is doubled, as
 * the reader expects. The byte order mark is the encoder's (src/csv/encode.ts).
 */
export function csvWriteOptionsFor(dialect: WrittenDialect): Options {
  return {
    bom: false,
    delimiter: dialect.delimiter,
    quote: dialect.quote,
    escape: dialect.quote,
    record_delimiter: dialect.lineEnding,
    quoted_match: /[\r\n]/,
  };
}
