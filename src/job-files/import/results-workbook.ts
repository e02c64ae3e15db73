import { hintFor } from '../hints.js';
import { writeSheet, type CellMark, type SheetLine } from '../../workbook/write-sheet.js';
import { statusColumns, type Outcome } from './columns.js';
import type { ResultLine } from './row-outcome.js';

/** Fills a reviewer reads at a glance: green filed, amber not filed (or would not), red invalid or rejected, orange failed, grey set aside. */
export const outcomeFills: Record<Outcome, string> = {
  filed: 'FFC6EFCE',
  created: 'FFE2EFDA',
  valid: 'FFE2EFDA',
  not_filed: 'FFFFEB9C',
  would_not_file: 'FFFFEB9C',
  invalid: 'FFFFC7CE',
  rejected: 'FFFFC7CE',
  failed: 'FFF8CBAD',
  skipped: 'FFEDEDED',
  duplicate: 'FFEDEDED',
};
/** The source cell to fix. */
export const errorCellFill = 'FFFF9999';

const statusWidths: Record<string, number> = {
  line: 7,
  outcome: 11,
  error_code: 24,
  error_message: 60,
  error_field: 26,
  http_status: 8,
  attempts: 8,
};

const outcomeColumn = statusColumns.indexOf('outcome');

/**
 * The results as a workbook: the same columns and rows as the results CSV, every cell text
 * (src/workbook/write-sheet.ts), the outcome cell coloured, and the source cell behind a row's
 * error highlighted with the error as its note: the cell the reviewer has to fix. Cells are written
 * as they are: a workbook's text cell never runs as a formula, so none needs the CSV's apostrophe,
 * and a fixed workbook fed back reads exactly as written.
 */
export async function writeResultsWorkbook(
  file: string,
  sourceColumns: readonly string[],
  lines: Iterable<ResultLine> | AsyncIterable<readonly ResultLine[]>,
  fieldColumns: Readonly<Record<string, readonly string[]>>,
  temporary?: string,
): Promise<void> {
  const header = [...statusColumns, ...sourceColumns];
  const positionOf = new Map(sourceColumns.map((column, position) => [column, statusColumns.length + position]));
  const widths = header.map((name) => statusWidths[name] ?? Math.min(40, Math.max(12, name.length + 2)));
  const marked = ({ result, cells }: ResultLine): SheetLine => {
    const marks = new Map<number, CellMark>([[outcomeColumn, { fill: outcomeFills[result.outcome] }]]);
    if (result.errorField !== '') {
      const note = `${result.errorCode}: ${result.errorMessage}\nfix: ${hintFor(result.errorCode)}`;
      for (const column of errorColumns(result.errorField, fieldColumns)) {
        const position = positionOf.get(column);
        if (position !== undefined) marks.set(position, { fill: errorCellFill, note });
      }
    }
    return { cells, marks };
  };
  await writeSheet(file, { sheetName: 'results', header, widths }, sheetLines(lines, marked), temporary);
}

/** Each line marked, as the sheet pulls them: a batch of lines at a time when they come in batches. */
async function* sheetLines(
  lines: Iterable<ResultLine> | AsyncIterable<readonly ResultLine[]>,
  marked: (line: ResultLine) => SheetLine,
): AsyncGenerator<SheetLine> {
  if (Symbol.asyncIterator in lines) {
    for await (const batch of lines) for (const line of batch) yield marked(line);
    return;
  }
  for (const line of lines) yield marked(line);
}

/**
 * The source columns an `error_field` names: the mapping's for a mapping field, the column itself
 * for an evidence column (`evidence.receipt_file`), none when no column stands behind it.
 */
export function errorColumns(
  errorField: string,
  fieldColumns: Readonly<Record<string, readonly string[]>>,
): readonly string[] {
  const known = fieldColumns[errorField];
  if (known !== undefined) return known;
  if (errorField.startsWith('evidence.')) return [errorField.slice('evidence.'.length)];
  return [errorField];
}
