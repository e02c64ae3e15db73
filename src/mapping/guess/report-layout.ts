import { maskCardNumbers } from '../../card-numbers/mask.js';
import type { Confidence } from '../../csv/confidence.js';
import type { ReportLayout } from '../../csv/report-layout.js';
import { looksLikeHeader, splitLines, type SplitRecord } from '../../csv/sniff-dialect.js';
import type { Decision } from './types.js';
import { flow, type YamlLines } from './render-yaml.js';

/**
 * Where the table sits in a report, found from its first and last bytes (docs/mappings.md,
 * "Reports with title lines, trailers and sections"): the header is the first line whose fields
 * match the rows under it, in count (as many fields as the table's most common width) and in kind
 * (names, not data); the lines before it are title lines; the lines after the table's last row
 * that are not as wide as it, or open with a total's word, are the trailer.
 */
export interface ReportLayoutGuess {
  /** The mapping's `report` section; undefined for a plain CSV (header on line 1, nothing after the rows). */
  readonly layout: ReportLayout | undefined;
  /** The header's line in the file. */
  readonly headerLine: number;
  /** The table's width: the header's field count. */
  readonly fields: number;
  /** The title lines before the header, as the draft quotes them (masked, shortened). */
  readonly titleLines: readonly string[];
  /** The trailer's first line as the draft quotes it, and where it was found. */
  readonly trailer: { readonly text: string; readonly line: number | undefined; readonly fields: number } | undefined;
  /** Blank lines among the rows of the head (not counting those after the table). */
  readonly blankLinesInside: number;
  readonly confidence: Confidence;
}

/** Records looked at in the head: a report's title block and enough rows to see the table's width. */
const recordsToRead = 2000;

/** A trailer's opening words when it is as wide as the rows (a totals line padded with empty cells). */
const totalWords = /^(?:grand\s+)?(?:totals?|trailer|end|eof|summary|record\s+count|count|sum)\b/i;

export function findReportLayout(input: {
  readonly head: string;
  readonly complete: boolean;
  /** The file's last bytes when the head is not the whole file; their first line may be cut and is dropped. */
  readonly tail: string | undefined;
  readonly delimiter: string;
  readonly quote: string;
}): ReportLayoutGuess | undefined {
  const records = splitLines(input.head, input.delimiter, input.quote, recordsToRead, input.complete);
  const filled = records.filter((record) => !record.blank);
  const fields = tableWidth(filled);
  if (fields === undefined) return undefined;
  const headerAt = filled.findIndex(
    (record, index) =>
      record.cells.length === fields &&
      looksLikeHeader(record.cells) &&
      (filled[index + 1] === undefined || filled[index + 1]?.cells.length === fields),
  );
  const header = filled[headerAt];
  if (header === undefined) return undefined;
  const before = filled.slice(0, headerAt);
  const lastRows = tailRecords(input, records);
  const lastRowAt = findLastIndex(lastRows, (record) => record.cells.length === fields && !isTotal(record));
  const trailerRecords = lastRows.slice(lastRowAt + 1);
  const trailerFirst = trailerRecords[0];
  const rowsBelow = filled.slice(headerAt + 1);
  const trailerSetting =
    trailerFirst === undefined
      ? undefined
      : trailerPattern(trailerFirst, trailerRecords.length, input.delimiter, rowsBelow);
  // Blank lines among the rows make rows of their own without a report section (csv_blank_line);
  // those after the last row are the file's end, and read well either way.
  const lastRowLine = findLast(rowsBelow, (record) => record.cells.length === fields && !isTotal(record))?.line ?? 0;
  const blankLinesInside = records.filter(
    (record) => record.blank && record.line > header.line && record.line < lastRowLine,
  ).length;

  const layout: ReportLayout = {};
  if (before.length > 0) layout.header = headerSetting(header, before, input.delimiter);
  if (trailerSetting !== undefined) layout.trailer = trailerSetting;
  const needed = layout.header !== undefined || layout.trailer !== undefined || blankLinesInside > 0;
  const quoted = (record: SplitRecord) => quote(record.cells.join(input.delimiter));
  return {
    layout: needed ? layout : undefined,
    headerLine: header.line,
    fields,
    titleLines: before.map(quoted),
    trailer:
      trailerFirst === undefined || trailerSetting === undefined
        ? undefined
        : {
            text: quoted(trailerFirst),
            line: input.tail === undefined ? trailerFirst.line : undefined,
            fields: trailerFirst.cells.length,
          },
    blankLinesInside,
    // A header found below title lines by the table's width alone is a guess worth a look.
    confidence: before.length === 0 ? 'high' : rowsBelow.length >= 2 ? 'medium' : 'low',
  };
}

/** The most common field count above one, weighted by records: the table's width. */
function tableWidth(records: readonly SplitRecord[]): number | undefined {
  const counts = new Map<number, number>();
  for (const record of records)
    if (record.cells.length > 1) counts.set(record.cells.length, (counts.get(record.cells.length) ?? 0) + 1);
  let width: number | undefined;
  let most = 0;
  for (const [count, times] of counts)
    if (times > most || (times === most && count > (width ?? 0))) [width, most] = [count, times];
  return width;
}

/**
 * The header by the text it starts with: its first cell, unless a title line starts the same
 * way, then the whole header line. A text survives another title line or one more of them,
 * where a line number would not.
 */
function headerSetting(header: SplitRecord, before: readonly SplitRecord[], delimiter: string): ReportLayout['header'] {
  const text = header.cells.join(delimiter);
  const first = header.cells[0] ?? '';
  const clashes = (prefix: string) => before.some((record) => record.cells.join(delimiter).startsWith(prefix));
  if (first.trim() !== '' && !clashes(first)) return { starts_with: first };
  if (!clashes(text)) return { starts_with: text };
  return { line: header.line };
}

/**
 * The trailer's line as a pattern: the text before the first digit when it names a field
 * (`ProcessingEntityId=`, `Total records:`), else its first cell as a whole cell. Undefined when a
 * row of the table would match it too: then no pattern tells them apart.
 */
function trailerPattern(
  trailer: SplitRecord,
  trailerLines: number,
  delimiter: string,
  rows: readonly SplitRecord[],
): ReportLayout['trailer'] {
  const first = trailer.cells[0] ?? '';
  const named = /^([^\d]*?[=:])/.exec(first)?.[1];
  const setting: NonNullable<ReportLayout['trailer']> =
    named !== undefined && named.length >= 2
      ? { starts_with: named }
      : { matches: `^${escapeRegExp(first)}(?:${escapeRegExp(delimiter)}|$)` };
  const matches = (record: SplitRecord) => {
    const text = record.cells.join(delimiter);
    return setting.starts_with !== undefined
      ? text.startsWith(setting.starts_with)
      : new RegExp(setting.matches ?? '', 'u').test(text);
  };
  // Found in the head, the trailer is among the rows below the header: only those before it are the table's.
  const tableRows = trailer.line === 0 ? rows : rows.filter((record) => record.line < trailer.line);
  if (first === '' || tableRows.some(matches)) return { lines: trailerLines };
  return setting;
}

/** The last records of the file: the tail's, its cut first line dropped, or the head's when it is the whole file. */
function tailRecords(
  input: { tail: string | undefined; delimiter: string; quote: string },
  headRecords: readonly SplitRecord[],
): SplitRecord[] {
  if (input.tail === undefined) return headRecords.filter((record) => !record.blank);
  const cut = input.tail.search(/\r?\n/);
  const whole = cut === -1 ? '' : input.tail.slice(cut).replace(/^\r?\n/, '');
  // Lines here are counted from the tail's start: a trailer found here is named by its text only.
  return splitLines(whole, input.delimiter, input.quote, Number.MAX_SAFE_INTEGER, true)
    .filter((record) => !record.blank)
    .map((record) => ({ ...record, line: 0 }));
}

function isTotal(record: SplitRecord): boolean {
  return totalWords.test((record.cells[0] ?? '').trim());
}

function findLast<T>(items: readonly T[], predicate: (item: T) => boolean): T | undefined {
  const index = findLastIndex(items, predicate);
  return index === -1 ? undefined : items[index];
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index--) if (predicate(items[index] as T)) return index;
  return -1;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A line as the draft quotes it: masked (a title may name a card), and short. */
function quote(text: string): string {
  const masked = maskCardNumbers(text);
  return JSON.stringify(masked.length > 60 ? `${masked.slice(0, 60)}…` : masked);
}

/** The draft's `report` section, each setting after the lines that show why. */
export function renderReport(yaml: YamlLines, report: ReportLayoutGuess): void {
  const { layout } = report;
  if (layout === undefined) return;
  yaml.add('report:');
  if (layout.header !== undefined) {
    const titles = report.titleLines.length;
    yaml.comment(
      '  ',
      `header: line ${report.headerLine}, the first line whose ${report.fields} fields match the rows under it; ` +
        `${titles === 1 ? 'the line' : `the ${titles} lines`} before it ${titles === 1 ? 'is a title line' : 'are title lines'} ` +
        `(${report.titleLines.join(', ')}) and not rows (confidence: ${report.confidence})`,
    );
    if (report.confidence !== 'high')
      yaml.check('  ', 'report.header', `is line ${report.headerLine} the header of the table?`);
    yaml.add(`  header: ${flow(layout.header)}`);
  }
  if (layout.trailer !== undefined && report.trailer !== undefined) {
    const where = report.trailer.line === undefined ? 'the last line with text' : `line ${report.trailer.line}`;
    yaml.comment(
      '  ',
      `trailer: ${where}, ${report.trailer.text}, has ${report.trailer.fields} ${report.trailer.fields === 1 ? 'field' : 'fields'} ` +
        `where the rows have ${report.fields}: it and every line after it are not rows`,
    );
    yaml.add(`  trailer: ${flow(layout.trailer)}`);
  }
  if (report.blankLinesInside > 0)
    yaml.comment('  ', `${report.blankLinesInside} blank lines among the rows: skipped and counted, never rows`);
  if (layout.header === undefined && layout.trailer === undefined) yaml.add('  {}');
}

/** The `decided:` lines of the report's layout: where the header is, and where the data ends. */
export function reportDecisions(report: ReportLayoutGuess): Decision[] {
  if (report.layout === undefined) return [];
  const titles = report.titleLines.length;
  const decisions: Decision[] = [
    {
      subject: 'report.header',
      decision:
        titles === 0
          ? `line ${report.headerLine}`
          : `line ${report.headerLine}, after ${titles} title ${titles === 1 ? 'line' : 'lines'}`,
      confidence: report.confidence,
    },
  ];
  if (report.trailer !== undefined)
    decisions.push({
      subject: 'report.trailer',
      decision: `${report.trailer.line === undefined ? 'the last line' : `line ${report.trailer.line}`}, ${report.trailer.text}`,
      confidence: 'medium',
    });
  return decisions;
}
