import { Readable } from 'node:stream';
import { CsvFormatError } from '../../csv/errors.js';
import { isSourceFailure, type ByteSource } from '../../files/byte-source.js';
import { declaredParts, type DeclaredPart, type PartKind } from './directory.js';
import { inflatedPart } from './inflate-part.js';
import { workbookLimits } from './limits.js';
import { endOfDirectory, storedEntryHeader } from './stored-entry.js';
import { XmlBounds, type ItemBounds } from './xml-bounds.js';

/** A workbook as exceljs's streaming reader is given it, and what refused it if anything did. */
export interface CheckedWorkbook {
  readonly stream: Readable;
  /** The limit a part went past (or the store's failure to give its bytes), once it has: the stream ends there. */
  readonly failure: () => Error | undefined;
  /**
   * Calls `listener` with that failure when it comes, until the returned function is called:
   * exceljs may fail on the cut, or wait for the rest of a part for ever, so its reading is raced
   * against it (`untilFailure`).
   */
  readonly whenFailed: (listener: (failure: Error) => void) => () => void;
}

/** Read before the sheets, in the order exceljs needs them: a sheet read after the strings is parsed as it streams. */
const order: readonly PartKind[] = ['relationships', 'workbook', 'styles', 'sharedStrings', 'sheet'];

/** A workbook with no shared-strings table (ours) is given an empty one: exceljs would park each sheet in a temporary file. */
const emptySharedStrings = Buffer.from('<sst/>');

/**
 * The workbook exceljs reads, made here from the parts checked (src/workbook/parts/directory.ts):
 * a zip stream of those parts alone, each stored as inflated, counted (inflate-part.ts) and
 * watched (xml-bounds.ts) on its way. exceljs parses a zip's local headers in order and never its
 * directory, so a file could show it one thing and the directory another; given this stream, it
 * reads only the bytes that were checked. Throws `xlsx_too_large` or `workbook_unreadable` when
 * the directory does not pass; a part that fails while it streams ends the stream there.
 */
export async function checkedWorkbook(file: ByteSource): Promise<CheckedWorkbook> {
  const parts = (await declaredParts(file)).sort(inReadingOrder);
  let failure: Error | undefined;
  const listeners = new Set<(failure: Error) => void>();
  async function* bytes(): AsyncGenerator<Buffer> {
    try {
      if (!parts.some((part) => part.kind === 'sharedStrings')) {
        yield storedEntryHeader('xl/sharedStrings.xml', emptySharedStrings.length);
        yield emptySharedStrings;
      }
      for (const part of parts) {
        yield storedEntryHeader(part.name, part.inflatedBytes);
        const bounds = new XmlBounds(part.name, itemBounds(part.kind));
        for await (const chunk of inflatedPart(file, part)) {
          bounds.check(chunk);
          yield chunk;
        }
      }
      yield endOfDirectory();
    } catch (error) {
      // Kept, not thrown: exceljs pipes this stream into its unzipper, and a pipe passes no error on.
      failure =
        error instanceof CsvFormatError || isSourceFailure(error)
          ? (error as Error)
          : new CsvFormatError('workbook_unreadable', 1, `workbook: expected a readable file, got ${String(error)}`);
      for (const listener of listeners) listener(failure);
    }
  }
  return {
    stream: Readable.from(bytes(), { objectMode: false }),
    failure: () => failure,
    whenFailed: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * An exceljs iteration that ends with the workbook's failure as soon as there is one, instead of
 * waiting on a stream that was cut. What exceljs does with the cut afterwards is ignored. Each
 * step listens for the failure only while it waits (a race against one long-lived promise would
 * keep every row it ever raced).
 */
export async function* untilFailure<T>(source: AsyncIterable<T>, workbook: CheckedWorkbook): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const result = await new Promise<IteratorResult<T>>((resolve, reject) => {
        const failure = workbook.failure();
        if (failure !== undefined) {
          reject(failure);
          return;
        }
        const stop = workbook.whenFailed(reject);
        iterator.next().then(
          (next) => {
            stop();
            resolve(next);
          },
          (error: unknown) => {
            stop();
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      });
      if (result.done === true) {
        finished = true;
        return;
      }
      yield result.value;
    }
  } finally {
    // exceljs's generator, still waiting on its stream, is left to end with it (the caller destroys it).
    if (!finished) iterator.return?.(undefined).catch(() => undefined);
  }
}

function inReadingOrder(a: DeclaredPart, b: DeclaredPart): number {
  return order.indexOf(a.kind) - order.indexOf(b.kind) || sheetNumber(a.name) - sheetNumber(b.name);
}

function sheetNumber(name: string): number {
  return Number(/(\d+)\.xml$/.exec(name)?.[1] ?? 0);
}

function itemBounds(kind: PartKind): ItemBounds | undefined {
  if (kind === 'sheet')
    return {
      name: 'row',
      what: 'a row',
      bytes: workbookLimits.rowBytes,
      child: { name: 'c', most: workbookLimits.rowCells, what: 'cells' },
    };
  if (kind === 'sharedStrings')
    return {
      name: 'si',
      what: 'a string',
      bytes: workbookLimits.sharedStringBytes,
      most: { count: workbookLimits.sharedStrings, what: 'strings' },
    };
  return undefined;
}
