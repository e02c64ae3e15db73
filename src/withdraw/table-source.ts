import { CsvFormatError } from '../csv/errors.js';
import { readSourceTable, type TableShape } from '../job-files/read/read-table.js';
import { sourceError } from '../job-files/read/source-error.js';
import type { TargetFilter } from '../job-files/read/target-filter.js';
import type { WithdrawTarget } from '../job-files/withdraw/target.js';
import { tableLine, type TableLayout } from '../job-files/read/table-layout.js';

/** Where a table source's lines go: targets to the merger, unusable lines to `skipped`. */
export interface TableSink {
  add(target: WithdrawTarget): void;
  skip(line: number, reason: string): void;
}

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
  try {
    return await readSourceTable(
      file,
      shape,
      filter.column,
      (row) => {
        if ('error' in row) {
          sink.skip(row.line, row.error.message);
          return;
        }
        const verdict = tableLine(row.layout, row.cell, filter, seenKeys);
        if (verdict === undefined) return;
        if ('skip' in verdict) sink.skip(row.line, verdict.skip);
        else sink.add(verdict.target);
      },
      (layout) => {
        refuseUnservedFilters(file, layout, filter);
      },
    );
  } catch (error) {
    if (error instanceof CsvFormatError) throw sourceError(file, describeTable(error, shape), error);
    throw error;
  }
}

/** A filter a source cannot apply would take back more than was asked: refused, not ignored. */
function refuseUnservedFilters(file: string, layout: TableLayout, filter: TargetFilter): void {
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
}

function describeTable(error: CsvFormatError, shape: TableShape): string {
  if (error.code === 'csv_empty') return 'expected a header row, got an empty file';
  const what = shape.kind === 'xlsx' ? 'a workbook' : 'CSV';
  return `expected ${what} this tool can read, got ${error.message}`;
}
