import { createTemporaryStream, temporaryBeside } from '../files/own-file.js';
import { rename, rm } from 'node:fs/promises';
import type ExcelJS from 'exceljs';

/** How one cell stands out: a fill colour (ARGB, e.g. `FFC6EFCE`) and a note a reviewer reads on hover. */
export interface CellMark {
  readonly fill?: string | undefined;
  readonly note?: string | undefined;
}

export interface SheetLine {
  readonly cells: readonly string[];
  /** Marks by 0-based column. */
  readonly marks?: ReadonlyMap<number, CellMark> | undefined;
}

export interface SheetOptions {
  readonly sheetName: string;
  readonly header: readonly string[];
  /** Column widths in characters, by 0-based column (default: the header's width, at least 10). */
  readonly widths?: readonly number[] | undefined;
}

/** The text format: what a person types into the column stays text (`0123` keeps its zero). */
const textFormat = '@';
const headerFill = 'FFD9E1F2';

/**
 * One sheet written as an .xlsx file, streamed: every cell a text cell in a text-formatted column,
 * so a spreadsheet never turns an ARN into `7.67755811560297E+22` or drops a last4's leading zero,
 * nor does it once the reviewer types into it; the header frozen and filtered. Rows are written as
 * the lines are pulled (exceljs's WorkbookWriter: flat memory); strings are written inline, not
 * into a shared-strings table that would hold every cell in memory. Written to a temporary file,
 * 0600 (cardholder data), then renamed.
 */
export async function writeSheet(
  file: string,
  options: SheetOptions,
  lines: Iterable<SheetLine> | AsyncIterable<SheetLine>,
  temporary?: string,
): Promise<void> {
  await writeSheets(file, [{ options, lines: () => lines }], temporary);
}

/** A sheet of a workbook of several: its lines are asked for once the sheets before it are written. */
export interface SheetOf {
  readonly options: SheetOptions;
  readonly lines: () => Iterable<SheetLine> | AsyncIterable<SheetLine>;
}

/**
 * Several sheets in one .xlsx file, written in order, each as `writeSheet` writes its one;
 * `temporary` is the file written before the rename, when the caller must know it beforehand.
 */
export async function writeSheets(
  file: string,
  sheets: readonly SheetOf[],
  temporary = temporaryBeside(file),
): Promise<void> {
  // Loaded when a workbook is written: exceljs takes 0.3 s to load, which no CSV run should pay.
  const { default: excel } = await import('exceljs');
  const stream = createTemporaryStream(temporary);
  const workbook = new excel.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  try {
    for (const { options, lines } of sheets) await addSheet(workbook, stream, options, lines());
    await workbook.commit();
    await rename(temporary, file);
  } catch (error) {
    stream.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
}

async function addSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  stream: NodeJS.WritableStream,
  options: SheetOptions,
  lines: Iterable<SheetLine> | AsyncIterable<SheetLine>,
): Promise<void> {
  const sheet = workbook.addWorksheet(options.sheetName, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }] });
  sheet.columns = options.header.map((name, position) => ({
    key: String(position),
    width: options.widths?.[position] ?? Math.min(40, Math.max(10, name.length + 2)),
    style: { numFmt: textFormat },
  }));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: Math.max(1, options.header.length) } };
  const header = sheet.getRow(1);
  header.values = [...options.header];
  header.font = { bold: true };
  header.eachCell((cell) => {
    cell.fill = solid(headerFill);
  });
  header.commit();
  let number = 2;
  for await (const line of lines) {
    const row = sheet.getRow(number++);
    row.values = [...line.cells];
    for (const [column, mark] of line.marks ?? []) {
      const cell = row.getCell(column + 1);
      if (mark.fill !== undefined) cell.fill = solid(mark.fill);
      if (mark.note !== undefined) cell.note = mark.note;
    }
    row.commit();
    if (number % yieldEveryRows === 0) await drained(sheet, stream);
  }
  sheet.commit();
}

/**
 * exceljs's writer takes rows without backpressure: a sheet's XML is queued for the zip's deflate
 * as fast as rows come (a 100,000-row results workbook queued ~190 MB of buffers). Every few
 * hundred rows the writer waits while the sheet's queue (exceljs's StreamBuf: its buffers, and what
 * it handed the zip's entry stream) holds more than a little, and while the file has a backlog.
 */
const yieldEveryRows = 200;
const backlogLimitBytes = 1024 * 1024;

interface SheetQueue {
  buffers?: { length: number }[];
  /** archiver's entry stream: a readable-stream v2 PassThrough, which has no `writableLength` yet. */
  pipes?: { writableLength?: number; _writableState?: { length?: number } }[];
}

function backlogBytes(queue: SheetQueue): number {
  const buffered = (queue.buffers ?? []).reduce((total, buffer) => total + buffer.length, 0);
  return (
    buffered +
    (queue.pipes ?? []).reduce((total, pipe) => total + (pipe.writableLength ?? pipe._writableState?.length ?? 0), 0)
  );
}

async function drained(
  sheet: ExcelJS.Worksheet,
  file: NodeJS.WritableStream & { writableNeedDrain?: boolean },
): Promise<void> {
  const queue = (sheet as unknown as { stream?: SheetQueue }).stream ?? {};
  // The zip deflates on the thread pool: a short sleep, not a spin, while it catches up.
  await new Promise((resolve) => setImmediate(resolve));
  while (backlogBytes(queue) > backlogLimitBytes) await new Promise((resolve) => setTimeout(resolve, 2));
  if (file.writableNeedDrain === true) await new Promise((resolve) => file.once('drain', resolve));
}

function solid(argb: string): ExcelJS.Fill {
  return { type: 'pattern', pattern: 'solid', fgColor: { argb } };
}
