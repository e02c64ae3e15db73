import { z } from 'zod';
import type { ControlTally } from './control-tally.js';
import type { Controls } from './controls.js';
import { CsvFormatError } from './errors.js';
import type { ReportLayout } from './report-layout.js';

/** Why lines of a report were not rows (docs/mappings.md, "Reports with title lines, trailers and sections"). */
export interface LinesOutside {
  /** Title lines (and anything else) before the header. */
  beforeHeader: number;
  blank: number;
  /** The header again: on every page of a printed report, or at the head of the next block. */
  repeatedHeader: number;
  /** The trailer's lines, and the lines after it. */
  trailer: number;
  /** Records whose type `record_type.keep` does not list (or a fixed-width layout ignores), by type. */
  otherTypes: Record<string, number>;
  /** A fixed-width file's header records, one per block (absent in journals from before them). */
  headerRecords?: number;
}

/** The lines outside as a journal records them (JSON). */
export const linesOutsideSchema: z.ZodType<LinesOutside> = z.object({
  beforeHeader: z.number().int().nonnegative(),
  blank: z.number().int().nonnegative(),
  repeatedHeader: z.number().int().nonnegative(),
  trailer: z.number().int().nonnegative(),
  otherTypes: z.record(z.string(), z.number().int().nonnegative()),
  headerRecords: z.number().int().nonnegative().optional(),
});

export const noLinesOutside = (): LinesOutside => ({
  beforeHeader: 0,
  blank: 0,
  repeatedHeader: 0,
  trailer: 0,
  otherTypes: {},
});

export function countOutside(outside: LinesOutside): number {
  return (
    outside.beforeHeader +
    (outside.headerRecords ?? 0) +
    outside.blank +
    outside.repeatedHeader +
    outside.trailer +
    Object.values(outside.otherTypes).reduce((sum, count) => sum + count, 0)
  );
}

/** `2 before the header, 1 trailer line, 4931 blank lines, 3 of type "S"`: the import summary's words. */
export function describeLinesOutside(outside: LinesOutside): string {
  const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const parts: string[] = [];
  if (outside.beforeHeader > 0) parts.push(`${outside.beforeHeader} before the header`);
  if ((outside.headerRecords ?? 0) > 0)
    parts.push(plural(outside.headerRecords ?? 0, 'header record', 'header records'));
  // A fixed-width file's trailers are records of their own type; a report's trailer is its last lines.
  const records = outside.headerRecords !== undefined;
  if (outside.trailer > 0)
    parts.push(
      plural(
        outside.trailer,
        records ? 'trailer record' : 'trailer line',
        records ? 'trailer records' : 'trailer lines',
      ),
    );
  if (outside.repeatedHeader > 0) parts.push(plural(outside.repeatedHeader, 'header repeated', 'headers repeated'));
  if (outside.blank > 0) parts.push(plural(outside.blank, 'blank line', 'blank lines'));
  for (const [type, count] of Object.entries(outside.otherTypes))
    parts.push(`${plural(count, 'record', 'records')} of type ${JSON.stringify(type)}`);
  return parts.join(', ');
}

/** Records searched for a header that a pattern or line names: a report's title block is a few lines, not a file. */
export const maxRecordsBeforeHeader = 1000;

/** What one record of a report is. */
export type RecordPlace = 'header' | 'row' | 'outside';

/**
 * Judges a report's records one by one, in order, by its mapping's `report` section, and counts
 * those outside the table. Shared by the CSV and the workbook reader, which build the rows. A
 * trailer given as a number of lines is only known at the end: `release` hands the records back
 * once enough follow them.
 */
/** A report's control figures, told to a tally as the records are placed (docs/mappings.md, "Fixed-width files and control records"). */
export interface ReportControls {
  readonly controls: Controls;
  readonly tally: ControlTally;
}

export class ReportRegion<T> {
  readonly outside = noLinesOutside();
  private sumsAt = -1;
  private readonly countPattern: RegExp | undefined;
  private readonly amountPattern: RegExp | undefined;
  private header: readonly string[] | undefined;
  private headerText: string | undefined;
  private typePosition: number | undefined;
  private inTrailer = false;
  private recordsBefore = 0;
  private readonly held: T[] = [];
  private readonly startsWith: ((cells: readonly string[]) => boolean) | undefined;
  private readonly endsWith: ((cells: readonly string[]) => boolean) | undefined;

  constructor(
    private readonly layout: ReportLayout,
    private readonly delimiter: string,
    private readonly checked?: ReportControls,
  ) {
    this.startsWith = matcher(layout.header, delimiter);
    this.endsWith = matcher(layout.trailer, delimiter);
    const pattern = (source: string | undefined) => (source === undefined ? undefined : new RegExp(source, 'u'));
    this.countPattern = pattern(checked?.controls.record_count?.matches);
    this.amountPattern = pattern(checked?.controls.amount_total?.matches);
  }

  /** Where a record before the header is; `line` is the line it starts on. */
  placeBeforeHeader(values: readonly string[], line: number, blank: boolean): RecordPlace {
    const header = this.layout.header;
    const isHeader =
      !blank &&
      (header?.line !== undefined ? line === header.line : this.startsWith === undefined || this.startsWith(values));
    if (isHeader) return 'header';
    if (header?.line !== undefined && line > header.line)
      throw new CsvFormatError(
        'csv_header_not_found',
        line,
        `header: expected a record starting on line ${header.line} (report.header.line), got one spanning it`,
      );
    if (blank) this.outside.blank++;
    else this.outside.beforeHeader++;
    if (++this.recordsBefore > maxRecordsBeforeHeader) throw this.headerNotFound(line);
    return 'outside';
  }

  /** The header as read: its cells, and where the type column is. */
  takeHeader(header: readonly string[], line: number): void {
    this.header = header;
    this.headerText = header.join(this.delimiter);
    this.checked?.tally.header(line);
    const sums = this.checked?.controls.amount_total?.sums;
    if (sums !== undefined) {
      this.sumsAt = header.indexOf(sums);
      if (this.sumsAt === -1)
        throw new CsvFormatError(
          'csv_control_column',
          line,
          `header: expected the column ${JSON.stringify(sums)} (controls.amount_total.sums), got a header without it`,
        );
    }
    const typeColumn = this.layout.record_type?.column;
    if (typeColumn === undefined) return;
    const position = header.indexOf(typeColumn);
    if (position === -1)
      throw new CsvFormatError(
        'csv_record_type_column',
        line,
        `header: expected the column ${JSON.stringify(typeColumn)} (report.record_type.column), got a header without it`,
      );
    this.typePosition = position;
  }

  /** Where a record after the header is; `line` is the line it starts on. */
  place(values: readonly string[], blank: boolean, line: number): RecordPlace {
    if (blank) {
      this.outside.blank++;
      return 'outside';
    }
    const tally = this.checked?.tally;
    // The next block of a concatenated report, or the header printed again on a new page: only a
    // header after a trailer opens a block of its own.
    if (this.isHeaderAgain(values)) {
      if (tally?.trailerSeen === true) tally.header(line);
      this.inTrailer = false;
      this.outside.repeatedHeader++;
      return 'outside';
    }
    if (this.inTrailer || this.endsWith?.(values) === true) {
      this.inTrailer = true;
      this.outside.trailer++;
      if (tally !== undefined) this.tellTrailer(tally, values.join(this.delimiter), line);
      return 'outside';
    }
    if (this.typePosition !== undefined) {
      const type = (values[this.typePosition] ?? '').trim();
      if (!(this.layout.record_type?.keep ?? []).includes(type)) {
        this.outside.otherTypes[type] = (this.outside.otherTypes[type] ?? 0) + 1;
        tally?.record(line);
        return 'outside';
      }
    }
    if (tally !== undefined) {
      tally.record(line);
      tally.detail(line, this.sumsAt === -1 ? undefined : (values[this.sumsAt] ?? ''));
    }
    return 'row';
  }

  /** A trailer line's figures: each control's pattern, its first group. */
  private tellTrailer(tally: ControlTally, text: string, line: number): void {
    tally.trailer(line, {
      count: this.countPattern?.exec(text)?.[1],
      amount: this.amountPattern?.exec(text)?.[1],
    });
  }

  /**
   * A record the parser could not split into cells (a stray quote), judged by its raw text:
   * outside before the header and in the trailer, else a row's failure.
   */
  placeUnreadable(raw: string, line: number): RecordPlace {
    if (this.header === undefined) {
      this.outside.beforeHeader++;
      return 'outside';
    }
    const text = raw.replace(/\r?\n$/, '');
    const tally = this.checked?.tally;
    if (this.inTrailer || this.endsWith?.([text]) === true) {
      this.inTrailer = true;
      this.outside.trailer++;
      if (tally !== undefined) this.tellTrailer(tally, text, line);
      return 'outside';
    }
    if (tally !== undefined) {
      tally.record(line);
      tally.detail(line, this.sumsAt === -1 ? undefined : text);
    }
    return 'row';
  }

  /**
   * A row, held back while it may still be part of a trailer given as a number of lines: the
   * records it lets go, oldest first.
   */
  release(row: T): T[] {
    const lines = this.layout.trailer?.lines;
    if (lines === undefined) return [row];
    this.held.push(row);
    return this.held.length > lines ? this.held.splice(0, this.held.length - lines) : [];
  }

  /** Compared cell by cell first: joining every row's cells for this would cost a copy of the file. */
  private isHeaderAgain(values: readonly string[]): boolean {
    const header = this.header;
    return (
      header !== undefined &&
      values.length === header.length &&
      values[0] === header[0] &&
      values.join(this.delimiter) === this.headerText
    );
  }

  /** At the end of the input: the rows still held are the trailer. */
  finish(): void {
    this.outside.trailer += this.held.length;
    this.held.length = 0;
    this.checked?.tally.end();
  }

  /** The input ended, or the search gave up, without the header. */
  headerNotFound(line: number): CsvFormatError {
    const header = this.layout.header;
    const wanted =
      header?.line !== undefined
        ? `a record on line ${header.line} (report.header.line)`
        : header?.starts_with !== undefined
          ? `a line starting with ${JSON.stringify(header.starts_with)} (report.header.starts_with)`
          : `a line matching ${JSON.stringify(header?.matches ?? '')} (report.header.matches)`;
    const searched = Math.min(this.recordsBefore, maxRecordsBeforeHeader);
    return new CsvFormatError(
      'csv_header_not_found',
      line,
      `header: expected ${wanted}, got none in the first ${searched} records`,
    );
  }
}

/**
 * A line pattern as a test of a record's cells: its text is the cells joined by the delimiter, built
 * only when the first cell alone cannot answer (a row of the table is tested once for the trailer).
 */
function matcher(
  settings: { starts_with?: string | undefined; matches?: string | undefined } | undefined,
  delimiter: string,
): ((cells: readonly string[]) => boolean) | undefined {
  if (settings?.starts_with !== undefined) {
    const prefix = settings.starts_with;
    return (cells) => {
      const first = cells[0] ?? '';
      if (prefix.length <= first.length) return first.startsWith(prefix);
      // A first cell that is not where the prefix starts rules the line out without joining it.
      return prefix.startsWith(first) && cells.join(delimiter).startsWith(prefix);
    };
  }
  if (settings?.matches !== undefined) {
    const pattern = new RegExp(settings.matches, 'u');
    return (cells) => pattern.test(cells.join(delimiter));
  }
  return undefined;
}
