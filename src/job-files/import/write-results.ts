import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createTemporaryStream, temporaryBeside } from '../../files/own-file.js';
import { Readable } from 'node:stream';
import { maskCardNumbers } from '../../card-numbers/mask.js';
import { createEncoder } from '../../csv/encode.js';
import type { WrittenDialect } from '../../csv/layout.js';
import type { ResultRecord } from './records.js';
import { isOkResult, setAsideOutcomes, statusColumns, type Outcome } from './columns.js';
import { writeResultsWorkbook } from './results-workbook.js';
import { isWorkbookFile } from '../../workbook/read-rows.js';
import { neutralise } from '../../csv/neutralise.js';
import { rowResult, type ResultLine, type RowResult } from './row-outcome.js';
import { csvRecordsText } from '../../csv/records-text.js';

export interface ResultsSummary {
  rows: number;
  byOutcome: Partial<Record<Outcome, number>>;
  byErrorCode: Map<string, number>;
  /** Every row ended ok (filed, created, or valid in a dry run). */
  allOk: boolean;
  /** Rows whose case the service held and this job updated (or, in a dry run, would): `changed_fields` set. */
  changed: number;
  /** Rows sent with a card number masked in a field: `warnings` set (docs/import.md, "Card numbers"). */
  masked: number;
}

/**
 * The format of a results file: CSV in the input's dialect, or a workbook, whose `fieldColumns` (a
 * mapping's `fieldColumns`) say which source cell an `error_field` names.
 */
export type ResultsFormat =
  | { readonly kind: 'csv'; readonly dialect: WrittenDialect }
  | { readonly kind: 'xlsx'; readonly fieldColumns?: Readonly<Record<string, readonly string[]>> | undefined };

/** A results file's format from its name: `.xlsx` is a workbook, anything else CSV in the dialect given. */
export function resultsFormatOf(
  file: string,
  dialect: WrittenDialect,
  fieldColumns?: Readonly<Record<string, readonly string[]>>,
): ResultsFormat {
  return isWorkbookFile(file) ? { kind: 'xlsx', fieldColumns } : { kind: 'csv', dialect };
}

/**
 * The results file (docs/import.md, "The results CSV"): one line per input row in input order, the
 * status columns, then the source columns unchanged. A CSV is written in the input's dialect: its
 * delimiter, quote, line ending, byte order mark and encoding, so that the fixed file reads back
 * through the same mapping, every cell safe to open in a spreadsheet; a workbook as text cells
 * (src/job-files/import/results-workbook.ts). The journal is the import's (anything that lists its
 * result records in input order).
 */
export async function writeResults(
  journal: { results(): Iterable<ResultRecord> },
  sourceColumns: readonly string[],
  file: string,
  format: ResultsFormat,
): Promise<ResultsSummary> {
  // The import's own journal: staged masked now, or masked in place when resumed (mask-staged.ts).
  return writeResultRecords(journal.results(), sourceColumns, file, format, { cellsMasked: true });
}

/** Whether the records' cells are masked already (docs/import.md, "Card numbers"). */
export interface CardNumbersInRecords {
  /**
   * The journal was staged by a version that masks (its `card_numbers_masked` is set): its cells
   * are as the import sent them, the mapping's `not_card_numbers` columns kept as read. Otherwise
   * (a journal of an earlier version read by merge-results, report or review) every cell written
   * is masked.
   */
  readonly cellsMasked: boolean;
}

/**
 * Result records as a results file reads them: one at a time from a journal's statement (the
 * ordinary path, synchronous), or in batches from a source that awaits (a thinned journal's, whose
 * cells are read again from the input: src/import/thinned), one await per batch.
 */
export type ResultRecordsIn = Iterable<ResultRecord> | AsyncIterable<readonly ResultRecord[]>;

/**
 * The results file from journal records in input order (one journal's, or several shards' merged:
 * src/job-files/import/merge.ts). Written to a temporary file and renamed, so a reader never sees
 * half a file; `temporary` names it when the caller records it beforehand (a run that writes the
 * results while it sends, whose next run removes what a killed one left).
 */
export async function writeResultRecords(
  records: ResultRecordsIn,
  sourceColumns: readonly string[],
  file: string,
  format: ResultsFormat,
  cardNumbers: CardNumbersInRecords,
  { temporary }: { temporary?: string } = {},
): Promise<ResultsSummary> {
  const summary: ResultsSummary = {
    rows: 0,
    byOutcome: {},
    byErrorCode: new Map(),
    allOk: true,
    changed: 0,
    masked: 0,
  };
  const line = (record: ResultRecord) => resultLine(record, sourceColumns, summary, cardNumbers);
  const lines: ResultLinesIn = isBatches(records) ? lineBatches(records, line) : mapped(records, line);
  if (format.kind === 'xlsx')
    await writeResultsWorkbook(file, sourceColumns, lines, format.fieldColumns ?? {}, temporary);
  else await writeResultsCsv(file, sourceColumns, lines, format.dialect, temporary);
  return summary;
}

/** Result lines as the writers take them: one at a time, or in batches (`ResultRecordsIn`). */
export type ResultLinesIn = Iterable<ResultLine> | AsyncIterable<readonly ResultLine[]>;

export function isBatches<T>(items: Iterable<T> | AsyncIterable<readonly T[]>): items is AsyncIterable<readonly T[]> {
  return Symbol.asyncIterator in items;
}

function* mapped<T, U>(items: Iterable<T>, each: (item: T) => U): Generator<U> {
  for (const item of items) yield each(item);
}

async function* lineBatches(
  batches: AsyncIterable<readonly ResultRecord[]>,
  line: (record: ResultRecord) => ResultLine,
): AsyncGenerator<readonly ResultLine[]> {
  for await (const batch of batches) yield batch.map(line);
}

/** One record's line, counted into the summary. */
function resultLine(
  record: ResultRecord,
  sourceColumns: readonly string[],
  summary: ResultsSummary,
  { cellsMasked }: CardNumbersInRecords,
): ResultLine {
  const read = rowResult(record);
  // A journal of an earlier version may quote a card number in a message, as a workbook's note repeats it.
  const result = cellsMasked ? read : { ...read, errorMessage: maskCardNumbers(read.errorMessage) };
  summary.rows++;
  summary.byOutcome[result.outcome] = (summary.byOutcome[result.outcome] ?? 0) + 1;
  // A row set aside says why in its error_code: counted by its outcome, not among the errors.
  if (result.errorCode !== '' && !setAsideOutcomes.includes(result.outcome))
    summary.byErrorCode.set(result.errorCode, (summary.byErrorCode.get(result.errorCode) ?? 0) + 1);
  if (!isOkResult(result.outcome, result.errorCode)) summary.allOk = false;
  if ((record.changed_fields ?? '') !== '') summary.changed++;
  if ((record.warnings ?? '').includes('card_number_masked')) summary.masked++;
  const cells = [...statusCells(record, result), ...sourceCells(record, sourceColumns)];
  return { result, cells: cellsMasked ? cells : cells.map(maskCardNumbers) };
}

async function writeResultsCsv(
  file: string,
  sourceColumns: readonly string[],
  lines: ResultLinesIn,
  dialect: WrittenDialect,
  temporary = temporaryBeside(file),
): Promise<void> {
  const utf8 = dialect.encoding === 'utf-8';
  // UTF-8 is the stream's own (the mark written first when the input had one): no second stage
  // that turns each record's bytes into text and back. Other encodings go through the encoder.
  let batch: string[][] = [[...statusColumns, ...sourceColumns]];
  let first = true;
  const stringified = () => {
    const written = (first && utf8 && dialect.byteOrderMark ? '\ufeff' : '') + csvRecordsText(batch, dialect);
    first = false;
    batch = [];
    return written;
  };
  const text = function* (): Generator<string> {
    for (const line of lines as Iterable<ResultLine>) {
      batch.push(line.cells.map(neutralise));
      if (batch.length >= batchRecords) yield stringified();
    }
    yield stringified();
  };
  const textOfBatches = async function* (): AsyncGenerator<string> {
    for await (const received of lines as AsyncIterable<readonly ResultLine[]>) {
      for (const line of received) batch.push(line.cells.map(neutralise));
      if (batch.length >= batchRecords) yield stringified();
    }
    yield stringified();
  };
  const source = () => Readable.from(isBatches(lines) ? textOfBatches() : text());
  try {
    // Pulled by the file's stream: a batch is made when there is room for it (flat memory); a
    // failing disk rejects the pipeline, and ending the generator ends the journal's iterator.
    // Cardholder names and e-mails: readable by the owner only, like the journal.
    if (utf8) await pipeline(source(), createTemporaryStream(temporary));
    else
      await pipeline(
        source(),
        createEncoder(dialect.encoding, dialect.byteOrderMark),
        createTemporaryStream(temporary),
      );
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Records made text together, one write each: a stream write per record cost more than the record
 * itself (a resumed finished import of 100,000 rows spent 64% of its time writing the results).
 * Every batch ends in the line ending, as every record does.
 */
const batchRecords = 500;

function statusCells(record: ResultRecord, result: RowResult): string[] {
  return [
    String(record.line),
    record.claim_key === null ? '' : displayKey(record.claim_key),
    record.claim_id ?? '',
    record.case_id ?? '',
    result.outcome,
    result.errorCode,
    result.errorMessage,
    result.errorField,
    result.httpStatus === null ? '' : String(result.httpStatus),
    record.attempts === null ? '' : String(record.attempts),
    record.file_ids ?? '',
    record.changed_fields ?? '',
    record.warnings ?? '',
  ];
}

/** The record's cells under the source header; a record of the wrong width is cut or padded to it. */
function sourceCells(record: ResultRecord, sourceColumns: readonly string[]): string[] {
  const source = JSON.parse(record.source) as string[];
  return sourceColumns.map((_, position) => source[position] ?? '');
}

/** Keys are stored as JSON arrays of the key columns' values; people read them joined. */
export function displayKey(claimKey: string): string {
  return (JSON.parse(claimKey) as string[]).join('|');
}
