import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';

/**
 * An object in a store, as a source names the bytes it reads (src/storage identifies it): what a
 * journal binds in place of a file's sha256.
 */
export interface StoredObject {
  readonly bucket: string;
  readonly key: string;
  readonly etag: string;
  readonly versionId: string | undefined;
  readonly size: number;
}

/**
 * Marks an error of the place bytes are read from (a store refusing, not answering, an object
 * replaced): every reader passes it on as it is, never as a damaged file of its own kind.
 */
export const sourceFailure = Symbol('a failure of the source, not of its bytes');

export function isSourceFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && sourceFailure in error;
}

/** A span of a source's bytes, both ends counted (as `createReadStream` and an HTTP `Range` count them). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** A stream of a source's bytes that says how many it has given so far (staging's progress share). */
export type CountedReadable = Readable & { readonly bytesRead: number };

/**
 * An input's bytes wherever they are, a local file or an object: what every reader of an import's
 * input takes (the header check, the trailers, staging, a thinned journal's results, a workbook's
 * parts), so that each reads them afresh as a stream and none needs them on disk.
 */
export interface ByteSource {
  /** As the user gave it, for messages: the path, or `s3://bucket/key`. */
  readonly name: string;
  /** The object, as identified once by the plan; undefined for a local file. */
  readonly object: StoredObject | undefined;
  size(): Promise<number>;
  /** A fresh stream of the bytes (all of them, or `range`), read as it is pulled. */
  open(range?: ByteRange): Promise<CountedReadable>;
  /** Up to `length` bytes from `offset`: fewer at the end. */
  read(offset: number, length: number): Promise<Buffer>;
}

/** A local file, read where it is. */
export function fileSource(path: string): ByteSource {
  return {
    name: path,
    object: undefined,
    size: async () => (await stat(path)).size,
    // Its errors (a file gone) come with its first read, as they did when readers took a path.
    open: async (range) => createReadStream(path, range === undefined ? {} : { start: range.start, end: range.end }),
    read: async (offset, length) => {
      const handle = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, offset);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
  };
}

/** A path is a local file; a source is as it is. */
export function byteSourceOf(input: string | ByteSource): ByteSource {
  return typeof input === 'string' ? fileSource(input) : input;
}
