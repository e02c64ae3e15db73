import { CsvFormatError } from '../csv/errors.js';
import { numberedHeader } from '../csv/records.js';
import { delimiterCandidates, splitRecords } from '../csv/sniff-dialect.js';
import { renamedStatusCount, renameStatusColumns } from '../job-files/import/columns.js';
import { checkNotCardNumbers } from '../mapping/card-number-columns.js';
import { checkHeaderFits, HeaderMismatchError, type HeaderFit, type HeaderSource } from '../mapping/header-fit.js';
import type { Mapping } from '../mapping/schema.js';
import { exportLayout } from './export-layout.js';
import { exportRecordBatches } from './export-records.js';
import { columnReadings } from '../mapping/column-readings.js';
import { isWorkbookFile, readWorkbookRows } from '../workbook/read-rows.js';
import { byteSourceOf, type ByteSource } from '../files/byte-source.js';

/**
 * An import's input header, read and checked against its mapping before the journal is made
 * (docs/import.md, "What happens, in order"): a header that does not fit stops the run with
 * nothing staged, no journal to resume or to refuse the fixed mapping, no results file, and
 * nothing sent. `mapping check --input` runs the same.
 */

export interface InputHeaderOptions {
  /** The CSV export, results file or workbook: a local file (its path) or an object. */
  input: string | ByteSource;
  /** A workbook's sheet (default: its first). */
  sheet?: string | undefined;
  mapping: Mapping;
  /** The mapping file as the user named it, for the messages. */
  mappingFile: string;
}

type SourceHeaderOptions = InputHeaderOptions & { input: ByteSource };

/** What the check found: the fit, and whether the input is one of our results files fed back. */
export interface InputHeaderFit extends HeaderFit {
  readonly kind: HeaderSource['kind'];
  /** The header's columns (a results file's source columns), as read. */
  readonly columns: readonly string[];
}

/** Reads the input's header and checks it; throws HeaderMismatchError, or the mapping's error for `not_card_numbers`. */
export async function checkInputHeader(given: InputHeaderOptions): Promise<InputHeaderFit> {
  const options = { ...given, input: byteSourceOf(given.input) };
  const { input, mapping, mappingFile } = options;
  let header: readonly string[];
  try {
    header = await readHeader(options);
  } catch (error) {
    throw (await unreadableHeader(error, options)) ?? error;
  }
  const statusCount = renamedStatusCount(header);
  const kind = statusCount > 0 ? 'results file' : 'export';
  const columns = header.slice(statusCount);
  const workbook = isWorkbookFile(input.name);
  const splitOtherwise = workbook ? undefined : await splitOnOtherDelimiters(input, mapping);
  const sheet = !workbook
    ? undefined
    : options.sheet === undefined
      ? 'on its first sheet (another is read with --sheet NAME)'
      : `on sheet ${JSON.stringify(options.sheet)}`;
  const fit = checkHeaderFits(mapping, columns, { file: input.name, mappingFile, kind, splitOtherwise, sheet });
  // After the fit: in another export altogether, a not_card_numbers name is not the first thing wrong.
  checkNotCardNumbers(mappingFile, mapping, header);
  return { ...fit, kind, columns };
}

/** The header as staging reads it: the dialect's, a results file's status columns renamed. */
async function readHeader(options: SourceHeaderOptions): Promise<readonly string[]> {
  let header: readonly string[] | undefined;
  const hooks = {
    onHeader: (names: readonly string[]) => {
      header = names;
    },
    renameHeader: renameStatusColumns,
  };
  if (isWorkbookFile(options.input.name)) {
    const rows = readWorkbookRows(options.input, {
      sheet: options.sheet,
      readings: columnReadings(options.mapping),
      ...hooks,
      ...exportLayout(options.mapping),
    });
    // Leaving the loop ends the reader: the header is all that is needed.
    for await (const _row of rows) break;
  } else {
    const batches = exportRecordBatches(await options.input.open(), options.mapping, hooks);
    for await (const _batch of batches) break;
  }
  // Both readers throw csv_empty on a file without a header; a header alone yields no row.
  return header ?? [];
}

/**
 * A CSV whose first line does not parse in the mapping's dialect (a `;` file with quoted names
 * read with `,`, random bytes): when another delimiter splits it into the mapping's columns, or
 * it has none of them, that is what is wrong, not its quotes. Anything else keeps the reader's
 * own error (an empty name, a repeated one, an unclosed quote, an encoding).
 */
async function unreadableHeader(
  error: unknown,
  options: SourceHeaderOptions,
): Promise<HeaderMismatchError | undefined> {
  const { input, mapping, mappingFile } = options;
  if (!(error instanceof CsvFormatError) || error.line !== 1 || isWorkbookFile(input.name)) return undefined;
  if (['csv_encoding', 'csv_empty', 'csv_line_endings'].includes(error.code)) return undefined;
  const head = await headText(input, mapping);
  const columns = firstRecord(head, mapping, mapping.csv.delimiter);
  const splitOtherwise = await splitOnOtherDelimiters(input, mapping);
  try {
    checkHeaderFits(mapping, columns, { file: input.name, mappingFile, kind: 'export', splitOtherwise });
  } catch (mismatch) {
    if (mismatch instanceof HeaderMismatchError && mismatch.reason !== 'missing') return mismatch;
  }
  return undefined;
}

/** The first record split on each common delimiter but the mapping's, quotes honoured: the delimiter hint's evidence. */
async function splitOnOtherDelimiters(input: ByteSource, mapping: Mapping): Promise<Map<string, readonly string[]>> {
  const head = await headText(input, mapping);
  const split = new Map<string, readonly string[]>();
  for (const delimiter of delimiterCandidates)
    if (delimiter !== mapping.csv.delimiter && delimiter !== mapping.csv.quote)
      split.set(delimiter, firstRecord(head, mapping, delimiter));
  return split;
}

function firstRecord(head: { text: string; complete: boolean }, mapping: Mapping, delimiter: string): string[] {
  const record = splitRecords(head.text, delimiter, mapping.csv.quote, 1, head.complete)[0] ?? [];
  const names = mapping.csv.trim ? record.map((name) => name.trim()) : record;
  return mapping.csv.header ? names : numberedHeader(names.length);
}

/** A header is in the file's first bytes; more would only cost reading. */
const headBytes = 64 * 1024;

/**
 * The input's first bytes as text in the mapping's encoding (undecodable bytes replaced: this is
 * only evidence); of an object, a ranged read of those bytes alone.
 */
async function headText(input: ByteSource, mapping: Mapping): Promise<{ text: string; complete: boolean }> {
  const head = await input.read(0, headBytes);
  const text = new TextDecoder(mapping.csv.encoding).decode(head);
  return { text, complete: head.length < headBytes };
}
