import { pipeline, type Readable } from 'node:stream';
import { bufferedBatches } from './buffered-batches.js';
import { CsvError, parse, type Parser } from 'csv-parse';
import { maskCardNumbers } from '../card-numbers/mask.js';
import { createDecoder } from './decode.js';
import type { CsvDialect } from './dialect.js';
import { CsvFormatError, type CsvRowError } from './errors.js';
import type { FileLayout } from './layout.js';
import type { ReportLayout } from './report-layout.js';
import { ReportRegion, type LinesOutside, type ReportControls } from './report-region.js';
import {
  continuesSkippedRecord,
  countLineBreaks,
  isBlankLine,
  numberedHeader,
  readHeader,
  toRecord,
  toRow,
  type CsvRecord,
  type CsvRow,
} from './records.js';

/** Bounds the memory one record may take: an unclosed quote would otherwise buffer the rest of the file. */
export const maxRecordBytes = 1024 * 1024;

interface ParsedRecord {
  readonly record: string[];
}
/** A record csv-parse skipped, pushed in order into its output by `on_skip`. */
interface SkippedRecord {
  readonly skipped: { readonly code: string; readonly message: string; readonly raw: string };
}
type ParserOutput = ParsedRecord | SkippedRecord;

/** csv-parse error codes that do not lose the following records; every other one stops the run. */
const recoverableParserCodes = new Set(['INVALID_OPENING_QUOTE']);

/**
 * The run's failure for a parser error. The parser's message may quote the text it stopped at, and
 * its error carries the record read so far: the cause kept is a plain error with that message
 * masked, so a card number in the text goes no further (docs/import.md "Card numbers").
 */
function runFailure(code: string, line: number, parserError: Error): CsvFormatError {
  const cause = new Error(maskCardNumbers(parserError.message));
  if (code === 'CSV_QUOTE_NOT_CLOSED') {
    return new CsvFormatError(
      'csv_quote_not_closed',
      line,
      'record: expected a closing quote, got the end of the file',
      { cause },
    );
  }
  if (code === 'CSV_INVALID_CLOSING_QUOTE') {
    return new CsvFormatError(
      'csv_quote_unrecoverable',
      line,
      'record: expected a delimiter or line break after a closing quote, got another character',
      { cause },
    );
  }
  if (code === 'CSV_MAX_RECORD_SIZE') {
    return new CsvFormatError(
      'csv_record_too_large',
      line,
      `record: expected at most ${maxRecordBytes} bytes, got more (an unclosed quote?)`,
      { cause },
    );
  }
  return new CsvFormatError(
    'csv_parse',
    line,
    `record: expected CSV as declared in the dialect, got ${cause.message}`,
    { cause },
  );
}

/**
 * The records of a CSV byte stream, in input order, each exactly once: a row keyed by the header,
 * or a row failure. Pull-based: records are parsed only as fast as the caller iterates (plus the
 * streams' own buffers), so memory stays flat for any file size. Throws `CsvFormatError` when the
 * file as a whole cannot be read: no row is ever skipped silently.
 */
export interface ReadRowsOptions {
  /** Called once with the column names (read, or numbered when the dialect has no header). */
  onHeader?: (header: readonly string[]) => void;
  /**
   * Renames columns of the header as read, before names are checked for uniqueness: a file made
   * of two parts with their own names (our results CSV: status columns, then the source's) keeps
   * both apart.
   */
  renameHeader?: (header: readonly string[]) => readonly string[];
  /**
   * Called once with the file's line ending (its first record's) and whether it started with a
   * byte order mark, before the header is passed on: what a file written for this one must
   * repeat to read back the same way.
   */
  onLayout?: (layout: FileLayout) => void;
  /**
   * Where the table sits in a report: title lines, trailer, record types (the mapping's `report`).
   * Without it the first record is the header and blank lines are held back as today.
   */
  report?: ReportLayout | undefined;
  /**
   * Whether a first record is a header the report's layout does not apply to: one of our results
   * files fed back starts with its own header, no title line before it.
   */
  readAsIs?: (firstRecord: readonly string[]) => boolean;
  /** Called once the input has been read to its end under a `report` layout, with the lines not rows and why. */
  onLinesOutside?: (outside: LinesOutside) => void;
  /** The mapping's control figures and the tally that checks them, block by block (a report with a trailer). */
  controls?: ReportControls | undefined;
}

export async function* readRows(
  input: Readable,
  dialect: CsvDialect,
  options: ReadRowsOptions = {},
): AsyncGenerator<CsvRow> {
  for await (const rows of readBatches(input, dialect, options, keyedRows)) {
    // One by one: `yield*` of an array would add a hop per row for nothing.
    for (const row of rows) yield row;
  }
}

/**
 * The same records as `readRows`, in the same order and with the same failures, without the
 * header-keyed copy and in batches of those the parser has ready: a caller that reads cells by
 * position (staging) pays one await per batch instead of two per row.
 */
export function readRecordBatches(
  input: Readable,
  dialect: CsvDialect,
  options: ReadRowsOptions = {},
): AsyncGenerator<CsvRecord[]> {
  return readBatches(input, dialect, options, positionalRecords);
}

/** How a reader builds what it yields: a row keyed by the header, or a record by position. */
interface RowShape<R> {
  row(header: readonly string[], values: readonly string[], line: number, index: number): R;
  failure(line: number, index: number, error: CsvRowError): R;
}
const keyedRows: RowShape<CsvRow> = { row: toRow, failure: (line, index, error) => ({ line, index, error }) };
const positionalRecords: RowShape<CsvRecord> = {
  row: toRecord,
  failure: (line, index, error) => ({ line, index, raw: undefined, error }),
};

/** Parser objects handed over at most this many at a time (the parser holds about a chunk's worth). */
const mostPerBatch = 1024;

async function* readBatches<R>(
  input: Readable,
  dialect: CsvDialect,
  options: ReadRowsOptions,
  shape: RowShape<R>,
): AsyncGenerator<R[]> {
  const parser = openParser(input, dialect, options);
  const assembler = new RowAssembler(dialect, options, shape, (width) => {
    expectRecordsOf(parser, width);
  });
  try {
    for await (const outputs of bufferedBatches<ParserOutput>(parser, mostPerBatch)) {
      const rows: R[] = [];
      // The records before a run failure are still handed over first, as when they came one by one.
      let failure: { error: unknown } | undefined;
      try {
        for (const output of outputs) assembler.take(output, rows);
      } catch (error) {
        failure = { error };
      }
      if (rows.length > 0) yield rows;
      if (failure !== undefined) throw failure.error;
    }
  } catch (error) {
    if (error instanceof CsvFormatError) throw error;
    if (error instanceof CsvError) throw runFailure(error.code, assembler.nextLine, error);
    throw error;
  } finally {
    parser.destroy();
  }
  assembler.finish();
  if (assembler.header === undefined) {
    throw new CsvFormatError('csv_empty', 1, 'input: expected a header line, got an empty file');
  }
}

/**
 * The parser's outputs as rows, in order: lines counted, the header read from the first record, a
 * record the parser skipped reported as a row failure (or the run's), blank lines held back.
 */
class RowAssembler<R> {
  header: string[] | undefined;
  nextLine = 1;
  private index = 0;
  private previousSkippedRaw: string | undefined;
  // Blank lines are reported only once a record follows them: the blank lines editors and
  // exporters leave at the end of a file are not rows, and must not fail every run.
  private blankLines: R[] = [];
  // Under a `report` layout; left undefined for a file read as is (a results file fed back).
  private region: ReportRegion<R> | undefined;
  private regionDecided = false;
  private blankLinesBefore = 0;

  constructor(
    private readonly dialect: CsvDialect,
    private readonly options: ReadRowsOptions,
    private readonly shape: RowShape<R>,
    /** Told the header's width when a report's header is not its first record. */
    private readonly onTableWidth: (width: number) => void = () => undefined,
  ) {}

  /** At the end of the input: a trailer given as a number of lines is known, and the count is told. */
  finish(): void {
    const region = this.region;
    if (region === undefined) return;
    if (this.header === undefined) throw region.headerNotFound(this.nextLine);
    region.finish();
    this.options.onLinesOutside?.(region.outside);
  }

  take(output: ParserOutput, rows: R[]): void {
    if ('skipped' in output) {
      this.takeSkipped(output.skipped, rows);
      return;
    }
    this.previousSkippedRaw = undefined;
    const line = this.nextLine;
    this.nextLine += countLineBreaks(output.record) + 1;
    // csv-parse makes a new array for every record: no copy of it is needed.
    const values = this.dialect.trim ? output.record.map((value) => value.trim()) : output.record;
    const region = this.regionFor(values, values.length === 1 && values[0] === '');
    if (region === 'undecided') return;
    if (region !== undefined) {
      this.takeInReport(region, values, line, values.length === 1 && values[0] === '', rows);
      return;
    }
    if (this.header === undefined) {
      this.header = this.dialect.header
        ? readHeader(this.options.renameHeader?.(values) ?? values, line)
        : numberedHeader(values.length);
      this.options.onHeader?.(this.header);
      if (this.dialect.header) return;
    }
    if (isBlankLine(this.header, values)) {
      this.blankLines.push(this.shape.row(this.header, values, line, this.index++));
      return;
    }
    this.flushBlankLines(rows);
    rows.push(this.shape.row(this.header, values, line, this.index++));
  }

  /**
   * Whether a record is read under the report's layout: decided at the first non-blank record
   * (blank lines before it are counted once the layout applies), undefined when there is none.
   */
  private regionFor(values: readonly string[], blank: boolean): ReportRegion<R> | 'undecided' | undefined {
    const report = this.options.report;
    if (report === undefined || this.regionDecided) return this.region;
    if (blank) {
      this.blankLinesBefore++;
      return 'undecided';
    }
    this.regionDecided = true;
    if (this.options.readAsIs?.(values) === true) return undefined;
    this.region = new ReportRegion(report, this.dialect.delimiter, this.options.controls);
    this.region.outside.blank += this.blankLinesBefore;
    return this.region;
  }

  /** A record of a report: the header once found, rows of the table, everything else counted outside it. */
  private takeInReport(region: ReportRegion<R>, values: string[], line: number, blank: boolean, rows: R[]): void {
    if (this.header === undefined) {
      if (region.placeBeforeHeader(values, line, blank) === 'outside') return;
      this.header = this.dialect.header
        ? readHeader(this.options.renameHeader?.(values) ?? values, line)
        : numberedHeader(values.length);
      region.takeHeader(this.header, line);
      this.onTableWidth(this.header.length);
      this.options.onHeader?.(this.header);
      if (this.dialect.header) return;
    }
    if (region.place(values, blank, line) === 'outside') return;
    for (const released of region.release(this.shape.row(this.header, values, line, this.index++))) rows.push(released);
  }

  private takeSkipped({ code, message, raw }: SkippedRecord['skipped'], rows: R[]): void {
    if (continuesSkippedRecord(this.previousSkippedRaw, raw)) {
      this.nextLine += countLineBreaks([raw]) - countLineBreaks([this.previousSkippedRaw ?? '']);
      this.previousSkippedRaw = raw;
      return;
    }
    const line = this.nextLine;
    const region = this.regionFor([raw], false);
    if (region !== undefined && region !== 'undecided' && region.placeUnreadable(raw, line) === 'outside') {
      this.nextLine += countLineBreaks([raw]) + 1;
      this.previousSkippedRaw = raw;
      return;
    }
    if (!recoverableParserCodes.has(code) || this.header === undefined) {
      throw runFailure(code, line, new Error(message));
    }
    this.nextLine += countLineBreaks([raw]) + 1;
    this.previousSkippedRaw = raw;
    this.flushBlankLines(rows);
    rows.push(
      this.shape.failure(line, this.index++, {
        code: 'csv_quote',
        message: `record: expected quotes only around a whole field, got a stray ${this.dialect.quote}`,
      }),
    );
  }

  private flushBlankLines(rows: R[]): void {
    for (const blank of this.blankLines) rows.push(blank);
    this.blankLines = [];
  }
}

/**
 * Tells csv-parse the width of the records to come. It measures every record against its first
 * one, and with `relax_column_count` it still builds an error (message and stack) for each that
 * differs: under a report's title line, that was every row, a third of staging's time (measured:
 * 200,000 rows under two title lines staged at 0.66 of the same rows plain). Its state is not a
 * documented option, so the field is set only where it is found as a number: else reading is
 * unchanged, only slower (the stage benchmark's report row shows it).
 */
function expectRecordsOf(parser: Parser, width: number): void {
  const state = (parser as unknown as { state?: { expectedRecordLength?: unknown } }).state;
  if (state !== undefined && typeof state.expectedRecordLength === 'number') state.expectedRecordLength = width;
}

/**
 * csv-parse for the dialect, fed by the decoded input: every record raw and in order, a record it
 * skips pushed in its place as a `SkippedRecord`.
 */
function openParser(input: Readable, dialect: CsvDialect, options: ReadRowsOptions): Parser {
  const parser = parse({
    delimiter: dialect.delimiter,
    quote: dialect.quote,
    // A quote is escaped by doubling it, whichever character the dialect quotes with (csv-parse's
    // own default escape is always `"`, so `'it''s'` would not read with quote `'`).
    escape: dialect.quote,
    // Lets white space sit outside quotes; inside quotes it is kept, then trimmed below.
    trim: dialect.trim,
    record_delimiter: ['\r\n', '\n'],
    relax_column_count: true,
    skip_records_with_error: true,
    max_record_size: maxRecordBytes,
    raw: true,
    // Called synchronously between the records it pushes, so the report keeps its place in the order.
    on_skip: (error, raw) => {
      const code = error instanceof CsvError ? error.code : 'CSV_UNKNOWN';
      const skipped: SkippedRecord = { skipped: { code, message: error?.message ?? code, raw: raw ?? '' } };
      parser.push(skipped);
    },
  });
  // pipeline destroys every stage on the first error and on an early `break` of the caller.
  const observer = options.onLayout === undefined ? undefined : { quote: dialect.quote, onLayout: options.onLayout };
  pipeline(input, createDecoder(dialect.encoding, observer), parser, () => undefined);
  return parser;
}
