import { tableRows } from './read-table.js';
import {
  resultLine,
  resultsHeader,
  resultsKindOf,
  throwNotResults,
  type ResultLine,
  type ResultsKind,
  type UnreadableLine,
} from './read-results.js';

/**
 * The lines of a results workbook (withdraw's `--results FILE.xlsx`; the import's and
 * migrate-v1's workbooks read the same way), as `readResults` reads a CSV: the first sheet, the
 * job told by its header, one line per row. A workbook's cells are typed text, never neutralised
 * against formulas as a CSV's are: read as written. Throws `NotResultsError` when the header is
 * none of ours, and `CsvFormatError` when the file does not read as a workbook.
 */
export async function* readResultsWorkbook(file: string): AsyncGenerator<ResultLine | UnreadableLine> {
  // Set by the header callback, hence the cast: control flow cannot see it change.
  let kind = undefined as ResultsKind | undefined;
  let header: readonly string[] = [];
  // The header is refused by the loop: the workbook reader takes an error thrown in its callback for an unreadable workbook.
  const { rows, text } = tableRows({ file, shape: { kind: 'xlsx' } }, (names) => {
    header = names;
    kind = resultsKindOf(names);
    return kind === undefined ? names : resultsHeader(kind, names);
  });
  let position = 0;
  for await (const row of rows) {
    if (kind === undefined) throwNotResults('a results workbook', header);
    if ('error' in row) {
      yield { kind: 'unreadable', line: row.line, code: row.error.code, message: row.error.message };
      continue;
    }
    yield resultLine(kind, row.cells, ++position, text);
  }
  // A sheet with a header and no rows.
  if (kind === undefined) throwNotResults('a results workbook', header);
}
