import { createReadStream } from 'node:fs';
import type { WrittenDialect } from '../csv/layout.js';
import { CsvFormatError } from '../csv/errors.js';
import { readRows } from '../csv/read-rows.js';
import type { CsvRow } from '../csv/records.js';
import { restore } from '../csv/neutralise.js';
import { readWorkbookRows } from '../workbook/read-rows.js';
import { sourceError, SourceError } from '../job-files/source-error.js';
import type { TargetFilter } from '../job-files/target-filter.js';
import type { WithdrawTarget } from '../job-files/withdraw/target.js';
import { tableLayout, tableLine, type LayoutProblem, type TableLayout } from '../job-files/table-layout.js';

/** Where a table source's lines go: targets to the merger, unusable lines to `skipped`. */
export interface TableSink {
  add(target: WithdrawTarget): void;
  skip(line: number, reason: string): void;
}

export type TableShape = { readonly kind: 'csv'; readonly dialect: WrittenDialect } | { readonly kind: 'xlsx' };

/**
 * The lines of a results file or a list, CSV or workbook, read row by row: a results file is
 * typically what a person kept after filtering it in a spreadsheet, so every line present is meant;
 * a line that names nothing usable is told, never dropped in silence. Returns the kind of table it
 * was. Throws `SourceError` when the file cannot be read as a table at all.
 */
export async function readTableSource(
  file: string,
  shape: TableShape,
  filter: TargetFilter & { column?: string | undefined },
  seenKeys: Set<string>,
  sink: TableSink,
): Promise<'results' | 'list'> {
  let layout: TableLayout | LayoutProblem | undefined;
  // The layout is decided in the header callback, before the first row; a problem is thrown by
  // the loop (a workbook reader would wrap an error thrown in its callback as an unreadable workbook).
  const renameHeader = (names: readonly string[]) => {
    layout = tableLayout(names, filter.column);
    return 'header' in layout ? layout.header : names;
  };
  const rows: AsyncGenerator<CsvRow> =
    shape.kind === 'csv'
      ? readRows(createReadStream(file), { ...shape.dialect, header: true, trim: false }, { renameHeader })
      : readWorkbookRows(file, { renameHeader });
  // Cells of a results CSV were neutralised against formulas when written; a workbook's are as written.
  const cellText = shape.kind === 'csv' ? restore : (cell: string) => cell;
  try {
    for await (const row of rows) {
      const known = usable(file, layout, filter);
      if ('error' in row) {
        sink.skip(row.line, row.error.message);
        continue;
      }
      const verdict = tableLine(known, (role) => cellText(known.cell(row.cells, role)), filter, seenKeys);
      if (verdict === undefined) continue;
      if ('skip' in verdict) sink.skip(row.line, verdict.skip);
      else sink.add(verdict.target);
    }
    return usable(file, layout, filter).kind;
  } catch (error) {
    if (error instanceof CsvFormatError) throw sourceError(file, describeTable(error, shape), error);
    throw error;
  }
}

/** The layout, once the header has been read; a table that cannot serve what was asked is refused. */
function usable(file: string, layout: TableLayout | LayoutProblem | undefined, filter: TargetFilter): TableLayout {
  if (layout === undefined) throw new SourceError(`source ${file}: expected a header row, got none`);
  if ('problem' in layout) throw sourceError(file, `${layout.problem}; name the column holding the ids with --column`);
  // A filter a source cannot apply would take back more than was asked: refused, not ignored.
  if ((filter.outcomes?.length ?? 0) > 0 && !layout.has.has('outcome'))
    throw sourceError(
      file,
      'expected an outcome column for --outcome, got none (a list of ids: leave out --outcome, or keep the lines wanted)',
    );
  if ((filter.claimKeys?.length ?? 0) > 0 && !layout.has.has('claimKey'))
    throw sourceError(
      file,
      'expected a claim_key column for the claim keys asked for, got none (a list of ids: keep only the lines wanted)',
    );
  return layout;
}

function describeTable(error: CsvFormatError, shape: TableShape): string {
  if (error.code === 'csv_empty') return 'expected a header row, got an empty file';
  const what = shape.kind === 'xlsx' ? 'a workbook' : 'CSV';
  return `expected ${what} this tool can read, got ${error.message}`;
}
