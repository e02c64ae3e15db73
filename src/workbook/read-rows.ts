import type ExcelJS from 'exceljs';
import { CsvFormatError } from '../csv/errors.js';
import { readHeader, toRow, type CsvRow } from '../csv/records.js';
import type { ReportLayout } from '../csv/report-layout.js';
import { ReportRegion, type LinesOutside, type ReportControls } from '../csv/report-region.js';
import { cellText, type ColumnReading, type ReadCell } from './cell-text.js';
import { checkedWorkbook, untilFailure, type CheckedWorkbook } from './parts/checked-workbook.js';
import { workbookLimits } from './parts/limits.js';
import { counted, tooLarge } from './parts/too-large.js';
import { byteSourceOf, isSourceFailure, type ByteSource } from '../files/byte-source.js';

/** Whether a file is a workbook by its name: `.xlsx` (Office Open XML; not the old binary `.xls`). */
export function isWorkbookFile(file: string): boolean {
  return /\.xlsx$/i.test(file);
}

export interface ReadWorkbookOptions {
  /** The sheet to read (default: the workbook's first). */
  sheet?: string | undefined;
  /** How typed cells of a column read as text (by header name): the mapping's date formats and decimal separators. */
  readings?: ReadonlyMap<string, ColumnReading> | undefined;
  onHeader?: (header: readonly string[]) => void;
  renameHeader?: (header: readonly string[]) => readonly string[];
  /** Title rows, a trailer, record types: the mapping's `report`, as for a CSV (src/csv/read-rows.ts). */
  report?: ReportLayout | undefined;
  readAsIs?: (firstRecord: readonly string[]) => boolean;
  onLinesOutside?: (outside: LinesOutside) => void;
  /** The mapping's control figures and their tally, as for a CSV report. */
  controls?: ReportControls | undefined;
}

/** The minimum of exceljs's streamed row this reader uses. */
interface StreamedRow {
  readonly number: number;
  readonly cellCount: number;
  getCell(column: number): ReadCell;
}

/**
 * The rows of one sheet of an .xlsx file, as `readRows` gives a CSV's: the first row is the header,
 * each later row one record keyed by it, `line` the sheet's row number (what the person sees at the
 * left of the row). Streamed with exceljs's WorkbookReader: rows are read as the caller iterates.
 * Shared strings (the text table most spreadsheets write) are held in memory while the sheet is
 * read; the workbooks this tool writes use none. Every part is read within the limits of
 * src/workbook/parts/limits.ts (docs/import.md "Workbook limits"): past one, `xlsx_too_large`.
 *
 * Rows with no cell (a spreadsheet writes nothing for them) are not records: in a sheet, empty
 * rows are layout, and the line numbers of the rows around them stay true.
 */
export async function* readWorkbookRows(
  given: string | ByteSource,
  options: ReadWorkbookOptions = {},
): AsyncGenerator<CsvRow> {
  const source = byteSourceOf(given);
  const file = source.name;
  // Loaded when a workbook is read: exceljs takes 0.3 s to load, which no CSV run should pay.
  const { default: excel } = await import('exceljs');
  let input: CheckedWorkbook | undefined;
  const seen: string[] = [];
  let read = false;
  try {
    // The parts exceljs reads, checked against the limits before and while they inflate (src/workbook/parts).
    input = await checkedWorkbook(source);
    const reader = new excel.stream.xlsx.WorkbookReader(input.stream, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      entries: 'ignore',
    });
    for await (const worksheet of untilFailure(reader, input)) {
      const name = (worksheet as unknown as { name: string }).name;
      seen.push(name);
      if (!isWanted(name, options.sheet, reader)) {
        // Read to its end even so: exceljs reads every sheet from the one zip stream, in order, and
        // (given a sheet stored before the shared strings, which checked-workbook.ts never gives it)
        // parks it in a temporary file that a sheet left unread would open after its deletion.
        for await (const _row of untilFailure(worksheet, input));
        continue;
      }
      read = true;
      yield* sheetRows(untilFailure(worksheet as AsyncIterable<StreamedRow>, input), file, name, options);
      break;
    }
  } catch (error) {
    // A part past its limit ends exceljs's stream there: what exceljs then says of the cut is not the reason.
    const failure = input?.failure();
    if (failure !== undefined) throw failure;
    if (error instanceof CsvFormatError || isSourceFailure(error)) throw error;
    throw new CsvFormatError(
      'workbook_unreadable',
      1,
      `workbook: expected an .xlsx file (Office Open XML), got one that does not read (${(error as Error).message})`,
      { cause: error },
    );
  } finally {
    input?.stream.destroy();
  }
  if (!read) {
    const found =
      seen.length === 0 ? 'no sheets' : `the sheets ${seen.map((sheet) => JSON.stringify(sheet)).join(', ')}`;
    const wanted = options.sheet === undefined ? 'a sheet' : `a sheet named ${JSON.stringify(options.sheet)}`;
    throw new CsvFormatError('workbook_sheet_missing', 1, `workbook: expected ${wanted}, got ${found}`);
  }
}

/** The sheet asked for, or the workbook's first (its first tab: `xl/workbook.xml` order, read before the sheets). */
function isWanted(name: string, sheet: string | undefined, reader: ExcelJS.stream.xlsx.WorkbookReader): boolean {
  if (sheet !== undefined) return name === sheet;
  const first = (reader as unknown as { model?: { sheets?: { name: string }[] } }).model?.sheets?.[0]?.name;
  return first === undefined || first === name;
}

async function* sheetRows(
  rows: AsyncIterable<StreamedRow>,
  file: string,
  sheet: string,
  options: ReadWorkbookOptions,
): AsyncGenerator<CsvRow> {
  let header: string[] | undefined;
  let readings: (ColumnReading | undefined)[] = [];
  let index = 0;
  // Decided at the first row with a cell: one of our results workbooks fed back is read as it is.
  let region: ReportRegion<CsvRow> | undefined;
  for await (const row of rows) {
    const width = header?.length ?? row.cellCount;
    const values: string[] = [];
    for (let column = 1; column <= Math.max(width, row.cellCount); column++) {
      const text = cellText(row.getCell(column), readings[column - 1]);
      if (text.length > workbookLimits.cellCharacters) throw cellTooLarge(sheet, row.number, column, text.length);
      values.push(text);
    }
    // Cells past the header that hold nothing are not columns (a spreadsheet keeps formatted empty cells).
    while (values.length > width && values.at(-1) === '') values.pop();
    if (header === undefined) {
      while (values.at(-1) === '') values.pop();
      if (values.length === 0) continue;
      if (options.report !== undefined && region === undefined && options.readAsIs?.(values) !== true)
        region = new ReportRegion(options.report, ',', options.controls);
      // The header is the reader's once found: a later row alike is the header repeated, not a second header.
      if (region !== undefined && region.placeBeforeHeader(values, row.number, false) === 'outside') continue;
      header = readHeader(options.renameHeader?.(values) ?? values, row.number);
      region?.takeHeader(header, row.number);
      readings = header.map((name) => options.readings?.get(name));
      options.onHeader?.(header);
      continue;
    }
    if (values.every((value) => value === '')) continue;
    if (region === undefined) {
      yield toRow(header, values, row.number, index++);
      continue;
    }
    if (region.place(values, false, row.number) === 'outside') continue;
    for (const released of region.release(toRow(header, values, row.number, index++))) yield released;
  }
  if (header === undefined) {
    if (region !== undefined) throw region.headerNotFound(1);
    throw new CsvFormatError('csv_empty', 1, `workbook ${file}: expected a header row, got an empty sheet`);
  }
  if (region !== undefined) {
    region.finish();
    options.onLinesOutside?.(region.outside);
  }
}

/** A cell past Excel's own limit: no spreadsheet wrote it (a shared string or a run of rich text made to be long). */
function cellTooLarge(sheet: string, line: number, column: number, characters: number): CsvFormatError {
  return tooLarge(
    `sheet ${JSON.stringify(sheet)} cell ${columnName(column)}${line}`,
    `at most ${counted(workbookLimits.cellCharacters)} characters (Excel's limit)`,
    counted(characters),
    line,
  );
}

/** A column's letters, as a spreadsheet shows them: 1 is A, 27 AA. */
function columnName(column: number): string {
  let name = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26))
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  return name;
}
