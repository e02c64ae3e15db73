import { open } from 'node:fs/promises';
import type { CsvDialect, CsvEncoding } from '../../csv/dialect.js';
import { quoteThatReads } from '../../csv/sniff-dialect.js';
import { decodeSample, encodingOf } from '../../csv/sniff-encoding.js';
import { legacyStatusLayouts, statusColumns } from '../import/columns.js';
import { migrateColumns } from '../migrate/columns.js';
import { withdrawColumns } from '../withdraw/columns.js';

/**
 * A results CSV's dialect, told by the file itself: the import writes its results in the input's
 * dialect, and `report` must read them without being told it. Its first line is the status header
 * (`line`, `claim_key`, … joined by the delimiter, after a byte order mark if any), which gives the
 * delimiter; the bytes give the encoding (src/csv/sniff-encoding.ts, as `mapping guess` and
 * withdraw's sources sniff it); the quote is `"` unless only `'` reads.
 */

/** Enough of the file for the header and a few hundred rows. */
export const sampleBytes = 64 * 1024;

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
  const quote = quoteThatReads(text, delimiter, complete);
  return { delimiter, quote, encoding };
}

/**
 * The character after `line` when the first line is the import's status header (or after
 * `case_id`, migrate-v1's; or after `claim_key`, withdraw's, written in its source's dialect).
 */
function delimiterOf(text: string): string | undefined {
  for (const columns of [statusColumns, ...legacyStatusLayouts, migrateColumns, withdrawColumns]) {
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
