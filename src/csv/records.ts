import { CsvFormatError, type CsvRowError } from './errors.js';

/** A data record that has the header's shape. */
export interface CsvDataRow {
  /** 1-based physical line where the record starts, so staff can find it in an editor. */
  readonly line: number;
  /** 0-based number of the data record, counting bad records too. */
  readonly index: number;
  readonly cells: Readonly<Record<string, string>>;
  readonly raw: readonly string[];
}

/** A data record that could not be read; it still counts, so no row is ever dropped. */
export interface CsvRowFailure {
  readonly line: number;
  readonly index: number;
  readonly error: CsvRowError;
  /** The record's values when it could be split into fields (a wrong column count), kept for the results. */
  readonly raw?: readonly string[];
}

export type CsvRow = CsvDataRow | CsvRowFailure;

/** Physical line breaks inside parsed values: CRLF and LF both count once. */
export function countLineBreaks(values: readonly string[]): number {
  let breaks = 0;
  for (const value of values) {
    for (let position = value.indexOf('\n'); position !== -1; position = value.indexOf('\n', position + 1)) breaks++;
  }
  return breaks;
}

/** Column names from the first record; an unnamed or repeated column makes every row ambiguous. */
export function readHeader(values: readonly string[], line: number): string[] {
  const firstColumnByName = new Map<string, number>();
  values.forEach((name, position) => {
    const column = position + 1;
    if (name === '') {
      throw new CsvFormatError(
        'csv_header_empty',
        line,
        `header: expected a name in column ${column}, got an empty cell`,
      );
    }
    // Records end at LF or CRLF only, so a file with old Mac line ends (lone CR) reads as one
    // long header whose names hold the CRs: refuse it here rather than report zero rows.
    if (/\r(?!\n)/.test(name)) {
      throw new CsvFormatError(
        'csv_line_endings',
        line,
        `header: expected lines ending in LF or CRLF, got a lone CR in column ${column} ` +
          `(${JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name)}); save the file with Windows ` +
          `or Unix line endings`,
      );
    }
    const earlier = firstColumnByName.get(name);
    if (earlier !== undefined) {
      throw new CsvFormatError(
        'csv_header_duplicate',
        line,
        `header: expected unique column names, got ${JSON.stringify(name)} in column ${earlier} and column ${column}`,
      );
    }
    firstColumnByName.set(name, column);
  });
  return [...values];
}

/** Names for a file without a header: the 1-based column numbers. */
export function numberedHeader(columnCount: number): string[] {
  return Array.from({ length: columnCount }, (_, position) => String(position + 1));
}

/**
 * A record without the header-keyed copy, for a caller that reads cells by position (staging,
 * where the copy was 3.5% of its main thread). `raw` when the record split into fields (a
 * wrong column count too), `error` when it is not a row; both always present, so that every
 * record has one shape.
 */
export interface CsvRecord {
  readonly line: number;
  readonly index: number;
  readonly raw: readonly string[] | undefined;
  readonly error: CsvRowError | undefined;
}

/** csv-parse reads an empty line as one empty field; a multi-column file cannot mean that. */
export function isBlankLine(header: readonly string[], values: readonly string[]): boolean {
  return values.length === 1 && values[0] === '' && header.length > 1;
}

function blankLineError(header: readonly string[]): CsvRowError {
  return {
    code: 'csv_blank_line',
    message: `record: expected ${header.length} columns as in the header, got a blank line`,
  };
}

function columnCountError(header: readonly string[], values: readonly string[]): CsvRowError {
  return {
    code: 'csv_column_count',
    message: `record: expected ${header.length} columns as in the header, got ${values.length}`,
  };
}

/** One data record against the header: a row, or a row failure naming what is wrong. */
export function toRow(header: readonly string[], values: readonly string[], line: number, index: number): CsvRow {
  if (isBlankLine(header, values)) return { line, index, error: blankLineError(header) };
  if (values.length !== header.length) return { line, index, error: columnCountError(header, values), raw: values };
  const cells: Record<string, string> = {};
  header.forEach((name, position) => {
    cells[name] = values[position] ?? '';
  });
  return { line, index, cells, raw: values };
}

/** One data record against the header, as `toRow` judges it, without the header-keyed copy. */
export function toRecord(header: readonly string[], values: readonly string[], line: number, index: number): CsvRecord {
  if (isBlankLine(header, values)) return { line, index, raw: undefined, error: blankLineError(header) };
  if (values.length !== header.length) return { line, index, raw: values, error: columnCountError(header, values) };
  return { line, index, raw: values, error: undefined };
}

/**
 * Whether a parser error report continues the record of the previous one. csv-parse reports every
 * stray quote of a record, each with the record's text up to that quote; a later report of the same
 * record strictly extends the earlier text. A new record's first report cannot: the parser would
 * have stopped at the same quote, so its text would be equal, not longer.
 */
export function continuesSkippedRecord(previousRaw: string | undefined, raw: string): boolean {
  return previousRaw !== undefined && raw.length > previousRaw.length && raw.startsWith(previousRaw);
}
