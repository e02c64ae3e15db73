import { open } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { CsvDialect, CsvEncoding } from '../csv/dialect.js';
import { legacyStatusColumns, statusColumns } from './import/columns.js';
import { migrateColumns } from './migrate/columns.js';
import { withdrawColumns } from './withdraw/columns.js';

/**
 * A results CSV's dialect, told by the file itself: the import writes its results in the input's
 * dialect, and `report` must read them without being told it. Its first line is the status header
 * (`line`, `claim_key`, … joined by the delimiter, after a byte order mark if any), which gives the
 * delimiter; the bytes give the encoding; the quote is `"` unless only `'` reads.
 */

/** Enough of the file for the header and a few hundred rows. */
export const sampleBytes = 64 * 1024;

const quoteCandidates = ['"', "'"] as const;

export type DetectedDialect = Pick<CsvDialect, 'delimiter' | 'quote' | 'encoding'>;

/**
 * The dialect of a results CSV from its first bytes; `complete` says the sample is the whole file.
 * A file that is not one of ours gets the plain dialect (comma, `"`): the reader then names its header.
 */
export function detectResultsDialect(
  head: Uint8Array,
  complete: boolean,
  encoding: CsvEncoding = encodingOf(head, complete),
): DetectedDialect {
  const text = decodeSample(head, encoding, complete);
  const delimiter = delimiterOf(text);
  if (delimiter === undefined) return { delimiter: ',', quote: '"', encoding };
  const quote = quoteCandidates.find((candidate) => readsWith(text, delimiter, candidate, complete)) ?? '"';
  return { delimiter, quote, encoding };
}

/**
 * The encoding by the bytes: a byte order mark says it; `l` then a zero byte is the status header
 * in UTF-16LE without one; bytes that are valid UTF-8 are UTF-8; anything else is taken for
 * windows-1252 (Excel's single-byte encoding, of which latin1 is all but 0x80-0x9F).
 */
export function encodingOf(head: Uint8Array, complete: boolean): CsvEncoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head.length >= 2 && head[0] !== 0 && head[1] === 0) return 'utf-16le';
  try {
    // `stream` lets a character cut by the end of the sample pass; the rest must be valid.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: !complete });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

function decodeSample(head: Uint8Array, encoding: CsvEncoding, complete: boolean): string {
  if (encoding === 'latin1') return Buffer.from(head).toString('latin1');
  // Lenient: a sample cut inside a character, or a stray byte, must not stop the detection.
  return new TextDecoder(encoding).decode(head, { stream: !complete });
}

/**
 * The character after `line` when the first line is the import's status header (or after
 * `case_id`, migrate-v1's; or after `claim_key`, withdraw's, written in its source's dialect).
 */
function delimiterOf(text: string): string | undefined {
  for (const columns of [statusColumns, legacyStatusColumns, migrateColumns, withdrawColumns] as const) {
    const [first = '', second = ''] = columns;
    const delimiter = text.charAt(first.length);
    if (
      delimiter !== '' &&
      text.startsWith(`${first}${delimiter}${second}`) &&
      text.startsWith(columns.join(delimiter))
    )
      return delimiter;
  }
  return undefined;
}

/** Whether the sample reads as CSV with this quote, every record as wide as the header. */
function readsWith(text: string, delimiter: string, quote: string, complete: boolean): boolean {
  // An incomplete sample ends mid-record: only its whole lines are read.
  const sample = complete ? text : text.slice(0, text.lastIndexOf('\n') + 1);
  try {
    parse(sample, { delimiter, quote, escape: quote, record_delimiter: ['\r\n', '\n'], relax_column_count: false });
    return true;
  } catch (error) {
    // A sample cut inside a quoted cell that holds a line break.
    return !complete && (error as { code?: string }).code === 'CSV_QUOTE_NOT_CLOSED';
  }
}

/** The dialect of a results CSV on disk, from its first `sampleBytes`. */
export async function detectFileDialect(file: string, encoding?: CsvEncoding): Promise<DetectedDialect> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(sampleBytes);
    const { bytesRead } = await handle.read(head, 0, sampleBytes, 0);
    const complete = bytesRead < sampleBytes;
    const sample = head.subarray(0, bytesRead);
    return detectResultsDialect(sample, complete, encoding ?? encodingOf(sample, complete));
  } finally {
    await handle.close();
  }
}
