import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { ResultRow } from '../import/e2e-fixtures.js';

/**
 * A results CSV read as a spreadsheet would read it: a lone CR, a CRLF and an LF all end a record
 * outside quotes, and every record must have the header's width. A cell with a line break that
 * the writer left unquoted splits its row, and this throws (csv-parse's own reader would take the
 * first line break it meets as the only one, and could miss it). A UTF-8 BOM, which the results
 * carry when the input did, is the encoding's mark, not part of the first column's name.
 */
export async function readResultsStrict(file: string): Promise<{ header: string[]; rows: ResultRow[] }> {
  const text = await readFile(file, 'utf8');
  const records: string[][] = parse(text, {
    bom: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: false,
  });
  const [header = [], ...data] = records;
  return {
    header,
    rows: data.map(
      (record) => Object.fromEntries(header.map((column, position) => [column, record[position] ?? ''])) as ResultRow,
    ),
  };
}
