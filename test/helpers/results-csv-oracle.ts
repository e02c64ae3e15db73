import type { Options } from 'csv-stringify';
import type { RecordsDialect } from '../../src/csv/records-text.js';

/**
 * csv-stringify's options for the results' rules (src/csv/records-text.ts): the dialect's
 * delimiter, quote and line ending, a quote doubled, and any line break quoted (csv-stringify
 * quotes only its own record delimiter unless told). The oracle the results' own writer is held to.
 */
export function csvStringifyOptionsFor(dialect: RecordsDialect): Options {
  return {
    bom: false,
    delimiter: dialect.delimiter,
    quote: dialect.quote,
    escape: dialect.quote,
    record_delimiter: dialect.lineEnding,
    quoted_match: /[\r\n]/,
  };
}
