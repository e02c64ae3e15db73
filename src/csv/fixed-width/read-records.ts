import { pipeline, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { ControlTally } from '../control-tally.js';
import type { Controls } from '../controls.js';
import { createDecoder } from '../decode.js';
import { CsvFormatError } from '../errors.js';
import type { FileLayout } from '../layout.js';
import { noLinesOutside, type LinesOutside } from '../report-region.js';
import { maxRecordBytes } from '../read-rows.js';
import type { CsvRecord } from '../records.js';
import { detailRecord, fixedWidthColumns, recordOfRole } from './columns.js';
import type { FixedWidthLayout, RecordLayout } from './layout.js';

/**
 * The records of a fixed-width file (docs/mappings.md, "Fixed-width files and control records"),
 * in input order: each detail record a row, its fields sliced by the layout into the columns;
 * header, trailer and ignored records read, never rows. Pull-based like the CSV reader: lines are
 * split only as fast as the caller iterates, so memory stays flat for any file size.
 */
export interface FixedWidthReadOptions {
  /** Called once, before the first row, with the columns: the detail fields, then the carried header fields. */
  onHeader?: (columns: readonly string[]) => void;
  /** Called once with the file's line ending and byte order mark, for the results file to repeat. */
  onLayout?: (layout: FileLayout) => void;
  /** Called at the end with the records that were not rows, and why. */
  onLinesOutside?: (outside: LinesOutside) => void;
  /** The mapping's control figures: told to `tally`, checked as each block closes. */
  controls?: Controls | undefined;
  tally?: ControlTally | undefined;
  /**
   * The control pre-pass (src/import/check-controls.ts): every record read, typed, placed in its
   * block and told to `tally`, but no row built and none yielded. Only the summed field is cut.
   */
  tallyOnly?: boolean | undefined;
}

/** A field's place in a record as `slice` takes it. */
interface Slice {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

interface RecordKind {
  readonly role: RecordLayout['role'];
  readonly slices: readonly Slice[];
}

/** Lines handed over at most this many at a time. */
const mostPerBatch = 1024;

export async function* readFixedWidthBatches(
  input: Readable,
  layout: FixedWidthLayout,
  options: FixedWidthReadOptions = {},
): AsyncGenerator<CsvRecord[]> {
  const reader = new FixedWidthRecords(layout, options);
  // The decoder reports the line ending; its quote is one no line holds, so every LF ends a record.
  const decoder = createDecoder(
    layout.encoding,
    options.onLayout === undefined ? undefined : { quote: '\u0000', onLayout: options.onLayout },
  );
  pipeline(input, decoder, () => undefined);
  const text = new StringDecoder('utf8');
  let rest = '';
  try {
    for await (const chunk of decoder as AsyncIterable<Buffer>) {
      const lines = (rest + text.write(chunk)).split('\n');
      rest = lines.pop() ?? '';
      if (rest.length > maxRecordBytes) throw reader.tooLong();
      const records: CsvRecord[] = [];
      for (const line of lines) reader.take(line, records);
      if (records.length > 0) {
        for (let start = 0; start < records.length; start += mostPerBatch)
          yield records.slice(start, start + mostPerBatch);
      }
    }
    const records: CsvRecord[] = [];
    const last = rest + text.end();
    if (last !== '') reader.take(last, records);
    if (records.length > 0) yield records;
  } finally {
    decoder.destroy();
  }
  reader.finish();
}

/** One line after another: where each record goes, the rows built, the blocks told to the tally. */
class FixedWidthRecords {
  private readonly kinds = new Map<string, RecordKind>();
  private readonly typeStart: number;
  private readonly typeEnd: number;
  private readonly detailSlices: readonly Slice[];
  private readonly carried: readonly Slice[];
  private readonly sumsAt: number;
  private readonly hasHeader: boolean;
  private readonly tally: ControlTally | undefined;
  private readonly outside: LinesOutside = noLinesOutside();
  private readonly columns: readonly string[];
  /** The carried header fields of the block being read. */
  private carriedValues: readonly string[] = [];
  private nextLine = 1;
  private index = 0;
  private headerTold = false;
  /** The line of the open block's header, and of its trailer once read. */
  private blockHeaderLine: number | undefined;
  private blockTrailerLine: number | undefined;

  constructor(
    private readonly layout: FixedWidthLayout,
    private readonly options: FixedWidthReadOptions,
  ) {
    const base = layout.positions_from;
    this.typeStart = layout.record_type[0] - base;
    this.typeEnd = layout.record_type[1] - base + 1;
    const slicesOf = (record: RecordLayout): Slice[] =>
      Object.entries(record.fields).map(([name, [first, last]]) => ({
        name,
        start: first - base,
        end: last - base + 1,
      }));
    for (const [type, record] of Object.entries(layout.records))
      this.kinds.set(type, { role: record.role, slices: slicesOf(record) });
    this.detailSlices = slicesOf(detailRecord(layout).record);
    const header = recordOfRole(layout, 'header');
    this.hasHeader = header !== undefined;
    const carry = header?.record.carry ?? [];
    // In the order `carry` names them, as the columns are.
    const headerSlices = header === undefined ? [] : slicesOf(header.record);
    this.carried = carry.flatMap((name) => headerSlices.filter((slice) => slice.name === name));
    this.carriedValues = carry.map(() => '');
    this.columns = fixedWidthColumns(layout);
    const sums = options.controls?.amount_total?.sums;
    this.sumsAt = sums === undefined ? -1 : this.columns.indexOf(sums);
    this.tally = options.tally;
  }

  take(rawLine: string, rows: CsvRecord[]): void {
    const line = this.nextLine++;
    const text = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (!this.headerTold) {
      this.headerTold = true;
      this.options.onHeader?.(this.columns);
    }
    if (text.trim() === '') {
      this.outside.blank++;
      return;
    }
    const type = this.typeOf(text);
    const kind = this.kinds.get(type);
    if (kind === undefined) throw this.unknownType(line, type);
    switch (kind.role) {
      case 'header':
        this.takeHeader(text, line);
        return;
      case 'trailer':
        this.takeTrailer(text, kind, line);
        return;
      case 'ignore':
        this.expectInBlock(line, 'a record of type ' + JSON.stringify(type));
        this.outside.otherTypes[type] = (this.outside.otherTypes[type] ?? 0) + 1;
        this.tally?.record(line);
        return;
      case 'detail':
        this.expectInBlock(line, 'a detail record');
        this.tallyDetail(text, line);
        if (this.options.tallyOnly !== true) rows.push(this.row(text, line));
    }
  }

  /** At the end of the input: the last block closes, the records outside are told. */
  finish(): void {
    if (!this.headerTold)
      throw new CsvFormatError('csv_empty', 1, 'input: expected fixed-width records, got an empty file');
    this.tally?.end();
    this.options.onLinesOutside?.(this.outside);
  }

  tooLong(): CsvFormatError {
    return new CsvFormatError(
      'csv_record_too_large',
      this.nextLine,
      `record: expected at most ${maxRecordBytes} characters before a line break, got more`,
    );
  }

  private row(text: string, line: number): CsvRecord {
    const slices = this.detailSlices;
    // The blank columns past the carried ones are left as the empty strings `fill` writes.
    const values: string[] = new Array<string>(this.columns.length).fill('');
    for (let position = 0; position < slices.length; position++) {
      const slice = slices[position] as Slice;
      values[position] = this.cut(text, slice);
    }
    for (let position = 0; position < this.carriedValues.length; position++)
      values[slices.length + position] = this.carriedValues[position] ?? '';
    return { line, index: this.index++, raw: values, error: undefined };
  }

  /** A detail record told to the tally: of its fields, only the summed column is read. */
  private tallyDetail(text: string, line: number): void {
    if (this.tally === undefined) return;
    this.tally.record(line);
    this.tally.detail(line, this.sumsAt === -1 ? undefined : this.columnValue(text, this.sumsAt));
  }

  /** One column of a detail record's row, as `row` fills it: a detail field, a carried header field, or blank. */
  private columnValue(text: string, position: number): string {
    const detail = this.detailSlices[position];
    if (detail !== undefined) return this.cut(text, detail);
    return this.carriedValues[position - this.detailSlices.length] ?? '';
  }

  /** A header opens a block; one after a block without its trailer is the tally's to report. */
  private takeHeader(text: string, line: number): void {
    this.blockHeaderLine = line;
    this.blockTrailerLine = undefined;
    this.carriedValues = this.carried.map((slice) => this.cut(text, slice));
    this.outside.headerRecords = (this.outside.headerRecords ?? 0) + 1;
    this.tally?.header(line);
  }

  private takeTrailer(text: string, kind: RecordKind, line: number): void {
    this.expectInBlock(line, 'a trailer record');
    this.blockTrailerLine = line;
    this.outside.trailer++;
    if (this.tally === undefined) return;
    const controls = this.options.controls;
    const figure = (field: string | undefined) => {
      if (field === undefined) return undefined;
      const slice = kind.slices.find((each) => each.name === field);
      if (slice === undefined) return undefined;
      const value = text.slice(slice.start, slice.end).trim();
      return value === '' ? undefined : value;
    };
    this.tally.trailer(line, {
      count: figure(controls?.record_count?.field),
      amount: figure(controls?.amount_total?.field),
    });
  }

  /** A detail, ignored or trailer record must sit in a block: after its header, before its trailer. */
  private expectInBlock(line: number, what: string): void {
    if (!this.hasHeader) return;
    if (this.blockHeaderLine === undefined)
      throw new CsvFormatError(
        'fixed_width_block',
        line,
        `record: expected the header record first, got ${what} before any header`,
      );
    if (this.blockTrailerLine !== undefined)
      throw new CsvFormatError(
        'fixed_width_block',
        line,
        `record: expected a header record after the trailer on line ${this.blockTrailerLine}, got ${what}`,
      );
  }

  private typeOf(text: string): string {
    const written = text.slice(this.typeStart, this.typeEnd);
    return this.kinds.has(written) ? written : written.trim();
  }

  private cut(text: string, slice: Slice): string {
    const value = text.slice(slice.start, slice.end);
    return this.layout.trim ? value.trim() : value;
  }

  private unknownType(line: number, type: string): CsvFormatError {
    const known = [...this.kinds.keys()].map((each) => JSON.stringify(each));
    const listed = known.length === 1 ? known[0] : `${known.slice(0, -1).join(', ')} or ${known.at(-1) ?? ''}`;
    return new CsvFormatError(
      'fixed_width_record_type',
      line,
      `record: expected a record of type ${listed} (fixed_width.records) at positions ` +
        `${this.layout.record_type[0]}–${this.layout.record_type[1]}, got ${JSON.stringify(type)}`,
    );
  }
}
