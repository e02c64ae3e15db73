import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { CsvDialect } from '../../csv/dialect.js';
import type { WrittenDialect } from '../../csv/layout.js';
import { restore } from '../../csv/neutralise.js';
import { readRows, type ReadRowsOptions } from '../../csv/read-rows.js';
import type { CsvRow } from '../../csv/records.js';
import { readWorkbookRows } from '../../workbook/read-rows.js';
import { sourceError, SourceError } from './source-error.js';
import { tableLayout, type LayoutProblem, type Role, type TableLayout } from './table-layout.js';

/**
 * The one way the files jobs leave behind are read as tables: a CSV in the dialect it was written
 * in, or a workbook's first sheet, row by row. A CSV's cells were neutralised against formulas
 * when written, so they are read back restored; a workbook's are typed text, read as written. The
 * report reads results files through it (read-results.ts), withdraw's and track's sources their
 * tables (results files of ours, or lists with a claim_id or case_id column).
 */

export type TableShape = { readonly kind: 'csv'; readonly dialect: WrittenDialect } | { readonly kind: 'xlsx' };

/** Where a table's rows come from: a file of either shape, or a stream of CSV already opened. */
export type TableInput =
  | { readonly file: string; readonly shape: TableShape }
  | { readonly stream: Readable; readonly dialect: Pick<CsvDialect, 'delimiter' | 'quote' | 'encoding'> };

/** A table's rows under the header `renameHeader` gives, and how to read one of its cells as written. */
export function tableRows(
  input: TableInput,
  renameHeader: NonNullable<ReadRowsOptions['renameHeader']>,
): { rows: AsyncGenerator<CsvRow>; text: (cell: string) => string } {
  if ('stream' in input)
    return {
      rows: readRows(input.stream, { ...input.dialect, header: true, trim: false }, { renameHeader }),
      text: restore,
    };
  if (input.shape.kind === 'xlsx')
    return { rows: readWorkbookRows(input.file, { renameHeader }), text: (cell) => cell };
  const rows = readRows(
    createReadStream(input.file),
    { ...input.shape.dialect, header: true, trim: false },
    { renameHeader },
  );
  return { rows, text: restore };
}

/** One row of a table source: a record that could not be read, or a cell for each role. */
export type SourceRow =
  | { readonly line: number; readonly error: { readonly message: string } }
  | { readonly line: number; readonly cell: (role: Role) => string; readonly layout: TableLayout };

/**
 * The rows of a table source (withdraw's and track's): its layout told by its header (a results
 * file of ours, or a list), each row's cells by role. `check` may refuse a layout that cannot
 * serve what was asked. Returns the kind of table it was; throws `SourceError` when it has no
 * header or no column of ids, and the reader's `CsvFormatError` when it cannot be read at all.
 */
export async function readSourceTable(
  file: string,
  shape: TableShape,
  column: string | undefined,
  each: (row: SourceRow) => void,
  check: (layout: TableLayout) => void = () => undefined,
): Promise<'results' | 'list'> {
  let layout: TableLayout | LayoutProblem | undefined;
  // The layout is decided in the header callback, before the first row; a problem is thrown by
  // the loop (a workbook reader would wrap an error thrown in its callback as an unreadable workbook).
  const { rows, text } = tableRows({ file, shape }, (names) => {
    layout = tableLayout(names, column);
    return 'header' in layout ? layout.header : names;
  });
  const usable = (): TableLayout => {
    if (layout === undefined) throw new SourceError(`source ${file}: expected a header row, got none`);
    if ('problem' in layout)
      throw sourceError(file, `${layout.problem}; name the column holding the ids with --column`);
    check(layout);
    return layout;
  };
  for await (const row of rows) {
    const known = usable();
    if ('error' in row) each({ line: row.line, error: row.error });
    else each({ line: row.line, cell: (role) => text(known.cell(row.cells, role)), layout: known });
  }
  return usable().kind;
}
