import { open, stat } from 'node:fs/promises';
import type { CsvEncoding } from '../../csv/dialect.js';
import { LineEndingProbe, type WrittenDialect } from '../../csv/layout.js';
import { fileKindOf } from '../../files/file-kind.js';
import { describeContent } from '../../files/sniff.js';
import { isResultsHeader } from '../import/columns.js';
import { sniffDialect, splitRecords } from '../../csv/sniff-dialect.js';
import { decodeSample, sniffEncoding, UnsupportedEncodingError } from '../../csv/sniff-encoding.js';
import { detectResultsDialect, sampleBytes } from './results-dialect.js';
import { isMigrateHeader } from '../migrate/columns.js';
import { sourceError, sourceKinds } from './source-error.js';
import { codeOf } from '../../errors/coded-error.js';

/**
 * What a source is, by its bytes, never its name: a SQLite database (a journal), an .xlsx workbook
 * (a zip), or CSV text; anything else is refused here, before any request.
 */
export type SourceShape =
  { readonly kind: 'sqlite' } | { readonly kind: 'xlsx' } | { readonly kind: 'csv'; readonly dialect: WrittenDialect };

export async function sourceShape(file: string): Promise<SourceShape> {
  const { head, complete } = await headOf(file);
  const kind = fileKindOf(head);
  if (kind === 'sqlite') return { kind: 'sqlite' };
  if (kind === 'zip') return { kind: 'xlsx' };
  if (kind === 'xls')
    throw sourceError(file, `expected ${sourceKinds}, got an old Excel .xls workbook (save it as .xlsx or CSV)`);
  if (head.length === 0) throw sourceError(file, `expected ${sourceKinds}, got an empty file`);
  return { kind: 'csv', dialect: csvDialectOf(file, head, complete) };
}

async function headOf(file: string): Promise<{ head: Buffer; complete: boolean }> {
  const found = await stat(file).catch(() => undefined);
  if (found === undefined) throw sourceError(file, `expected ${sourceKinds}, got nothing there`);
  if (!found.isFile())
    throw sourceError(
      file,
      `expected ${sourceKinds}, got ${found.isDirectory() ? 'a folder' : 'something other than a file'}`,
    );
  const handle = await open(file, 'r').catch((error: unknown) => {
    throw sourceError(file, `expected a file this user can read, got ${codeOf(error) ?? String(error)}`, error);
  });
  try {
    const head = Buffer.alloc(sampleBytes);
    const { bytesRead } = await handle.read(head, 0, sampleBytes, 0);
    return { head: head.subarray(0, bytesRead), complete: bytesRead < sampleBytes };
  } finally {
    await handle.close();
  }
}

/**
 * The dialect to read a CSV source in, and to write the withdraw's results in (as every job writes
 * its results: in the source's dialect). A results file of ours is told by its status header, read
 * as `report` reads it; any other CSV (a list from another system) by the delimiter that splits its
 * lines alike, as `mapping guess` sniffs an export.
 */
function csvDialectOf(file: string, head: Buffer, complete: boolean): WrittenDialect {
  const encoding = encodingOf(file, head, complete);
  const text = decodeSample(head, encoding, complete);
  // eslint-disable-next-line no-control-regex -- control characters are what tells binary content from text
  if (/[\x00-\x08\x0b\x0e-\x1f\x7f]/.test(text))
    throw sourceError(file, `expected ${sourceKinds}, got ${describeContent(head)}`);
  const results = detectResultsDialect(head, complete, encoding);
  const [header = []] = splitRecords(text, results.delimiter, results.quote, 1, complete);
  const { delimiter, quote } =
    isResultsHeader(header) || isMigrateHeader(header) ? results : sniffDialect(text, complete);
  const lineEnding = new LineEndingProbe(quote).scan(text) ?? '\n';
  const byteOrderMark =
    (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) || (head[0] === 0xff && head[1] === 0xfe);
  return { delimiter, quote, encoding, lineEnding, byteOrderMark };
}

function encodingOf(file: string, head: Buffer, complete: boolean): CsvEncoding {
  try {
    return sniffEncoding(head, complete).encoding;
  } catch (error) {
    if (error instanceof UnsupportedEncodingError) throw sourceError(file, error.message, error);
    throw error;
  }
}
