import { createRequire } from 'node:module';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import { isSourceFailure, type ByteSource } from '../../files/byte-source.js';
import { CsvFormatError } from '../../csv/errors.js';
import { workbookLimits } from './limits.js';
import { counted, tooLarge, unreadable } from './too-large.js';

/** One part of the workbook the reader reads, as the zip's central directory declares it. */
export interface DeclaredPart {
  readonly name: string;
  readonly kind: PartKind;
  /** Where its local file header starts. */
  readonly offset: number;
  readonly compressedBytes: number;
  readonly inflatedBytes: number;
  /** 0 stored, 8 deflated: the two methods a workbook's zip uses. */
  readonly method: number;
}

export type PartKind = 'relationships' | 'workbook' | 'styles' | 'sharedStrings' | 'sheet';

/** The central directory's fields this module reads (unzipper's `Open`: exceljs's own zip library). */
interface DirectoryEntry {
  readonly path: string;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly compressionMethod: number;
  readonly flags: number;
  readonly offsetToLocalFileHeader: number;
}

/** Where unzipper's `Open` reads the zip from: its size, and a stream of its bytes from `offset` (to the end without `length`). */
interface ZipBytes {
  size(): Promise<number>;
  stream(offset: number, length?: number): Readable;
}

interface Unzipper {
  readonly Open: { custom(source: ZipBytes): Promise<{ files: DirectoryEntry[] }> };
}

/**
 * The parts exceljs's streaming reader reads (src/workbook/read-rows.ts), by their names in the
 * zip: nothing else is inflated. Anchored, where exceljs matches sheet names anywhere in a path.
 */
function kindOf(name: string): PartKind | undefined {
  if (name === 'xl/_rels/workbook.xml.rels') return 'relationships';
  if (name === 'xl/workbook.xml') return 'workbook';
  if (name === 'xl/styles.xml') return 'styles';
  if (name === 'xl/sharedStrings.xml') return 'sharedStrings';
  if (/^xl\/worksheets\/sheet\d+\.xml$/.test(name)) return 'sheet';
  return undefined;
}

/** What a part may inflate to, whatever its directory says. */
export function inflatedLimit(kind: PartKind): number {
  if (kind === 'sheet') return workbookLimits.sheetBytes;
  if (kind === 'sharedStrings') return workbookLimits.sharedStringsBytes;
  return workbookLimits.otherPartBytes;
}

/**
 * The parts to read, checked from the zip's central directory before a byte is inflated: at most
 * `entries` entries; each part read stored or deflated, unencrypted, inside the file, at most its
 * kind's inflated size and, past the grace, at most `ratio` inflated bytes per compressed byte;
 * all the parts read together at most `ratio` times the file's size (overlapping entries, which
 * a zip bomb uses to inflate one kernel many times over, share one file's bytes).
 */
export async function declaredParts(file: ByteSource): Promise<DeclaredPart[]> {
  const fileBytes = await file.size();
  const entries = await directoryOf(file, fileBytes);
  if (entries.length > workbookLimits.entries)
    throw tooLarge(
      'zip',
      `at most ${counted(workbookLimits.entries)} entries in its directory`,
      counted(entries.length),
    );
  const parts: DeclaredPart[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const kind = kindOf(entry.path);
    if (kind === undefined) continue;
    if (seen.has(entry.path)) throw unreadable(entry.path, 'one entry of that name in the zip', 'two');
    seen.add(entry.path);
    parts.push(checkedPart(entry, kind, fileBytes));
  }
  const inflated = parts.reduce((total, part) => total + part.inflatedBytes, 0);
  if (inflated > workbookLimits.ratioGraceBytes && inflated > workbookLimits.ratio * fileBytes)
    throw tooLarge(
      'zip',
      `its parts to inflate to at most ${workbookLimits.ratio} times the file's ${counted(fileBytes)} bytes`,
      `${counted(inflated)} bytes`,
    );
  return parts;
}

async function directoryOf(file: ByteSource, fileBytes: number): Promise<DirectoryEntry[]> {
  // exceljs's own dependency, loaded with it: only a workbook run pays for it.
  const unzipper = createRequire(import.meta.url)('unzipper') as Unzipper;
  // unzipper pipes the directory's bytes without listening for their errors, and would wait on
  // them for ever: a read that fails (an object replaced meanwhile, a store gone) ends it here.
  let readFailed: (error: Error) => void = () => undefined;
  const failed = new Promise<never>((_resolve, reject) => {
    readFailed = reject;
  });
  const stream = (offset: number, length?: number): Readable => {
    const through = new PassThrough();
    const end = Math.min(length === undefined ? fileBytes : offset + length, fileBytes) - 1;
    if (end < offset) return through.end();
    file.open({ start: offset, end }).then(
      (bytes) =>
        pipeline(bytes, through, (error) => {
          // Called with nothing (not null, as typed) when the bytes were all read.
          if (error instanceof Error) readFailed(error);
        }),
      (error: unknown) => {
        readFailed(error instanceof Error ? error : new Error(String(error)));
      },
    );
    return through;
  };
  try {
    return await Promise.race([
      unzipper.Open.custom({ size: async () => fileBytes, stream }).then((zip) => zip.files),
      failed,
    ]);
  } catch (error) {
    // What reading the bytes failed with is said as it is (a store's failure is no damaged workbook).
    if (isSourceFailure(error)) throw error;
    // As exceljs's own failures read (src/workbook/read-rows.ts): a file that is no zip is no workbook.
    throw new CsvFormatError(
      'workbook_unreadable',
      1,
      `workbook: expected an .xlsx file (Office Open XML), got one that does not read (no zip central directory: ${(error as Error).message})`,
      { cause: error },
    );
  }
}

function checkedPart(entry: DirectoryEntry, kind: PartKind, fileBytes: number): DeclaredPart {
  const name = entry.path;
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
    throw unreadable(name, 'stored or deflated (zip methods 0 or 8)', `method ${entry.compressionMethod}`);
  if ((entry.flags & 0x01) !== 0) throw unreadable(name, 'an unencrypted entry', 'an encrypted one');
  const { compressedSize: compressed, uncompressedSize: inflated, offsetToLocalFileHeader: offset } = entry;
  if (![compressed, inflated, offset].every(Number.isSafeInteger) || offset + compressed > fileBytes)
    throw unreadable(name, `an entry inside the file's ${counted(fileBytes)} bytes`, 'one past its end');
  if (entry.compressionMethod === 0 && compressed !== inflated)
    throw unreadable(name, `a stored entry of ${counted(compressed)} bytes as stored`, `${counted(inflated)} declared`);
  const limit = inflatedLimit(kind);
  if (inflated > limit)
    throw tooLarge(
      name,
      `at most ${counted(limit)} bytes inflated`,
      `${counted(inflated)} (as its zip directory says)`,
    );
  if (inflated > workbookLimits.ratioGraceBytes && inflated > workbookLimits.ratio * compressed)
    throw tooLarge(
      name,
      `at most ${workbookLimits.ratio} inflated bytes per compressed byte`,
      `${counted(inflated)} from ${counted(compressed)} (a zip bomb?)`,
    );
  return { name, kind, offset, compressedBytes: compressed, inflatedBytes: inflated, method: entry.compressionMethod };
}
