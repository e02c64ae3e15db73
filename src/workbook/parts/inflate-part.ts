import { Readable, pipeline } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { CsvFormatError } from '../../csv/errors.js';
import { isSourceFailure, type ByteSource } from '../../files/byte-source.js';
import type { DeclaredPart } from './directory.js';
import { counted, tooLarge, unreadable } from './too-large.js';

const localHeaderSignature = 0x04034b50;
const localHeaderBytes = 30;
/** As a file is read (64 KiB): exceljs's unzipper and XML parser pay per chunk, and zlib's 16 KiB made reading a sheet a third slower. */
const inflateChunkBytes = 64 * 1024;

/**
 * A part's bytes, inflated from where the central directory says, as many compressed bytes as it
 * says, and counted as they come: a part that inflates past the size its directory declares (a
 * directory that lies) is refused at that size, with no more than one inflate chunk past it in
 * memory; one that ends short of it does not read. The local file header is read only to find
 * the data, and its name must be the directory's.
 */
export async function* inflatedPart(file: ByteSource, part: DeclaredPart): AsyncGenerator<Buffer> {
  const start = await dataStart(file, part);
  const stored =
    part.compressedBytes === 0 ? Readable.from([]) : await file.open({ start, end: start + part.compressedBytes - 1 });
  const inflated =
    part.method === 8
      ? pipeline(stored, createInflateRaw({ chunkSize: inflateChunkBytes }), () => {
          // An error ends the iteration below, which reports it.
        })
      : stored;
  let total = 0;
  try {
    for await (const chunk of inflated as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > part.inflatedBytes)
        throw tooLarge(
          part.name,
          `the ${counted(part.inflatedBytes)} bytes inflated its zip directory declares`,
          'more (a directory that lies: a zip bomb?)',
        );
      yield chunk;
    }
  } catch (error) {
    if (error instanceof CsvFormatError || isSourceFailure(error)) throw error;
    throw unreadable(part.name, 'deflated data', (error as Error).message);
  } finally {
    stored.destroy();
    inflated.destroy();
  }
  if (total !== part.inflatedBytes)
    throw unreadable(
      part.name,
      `${counted(part.inflatedBytes)} bytes inflated, as its zip directory says`,
      counted(total),
    );
}

async function dataStart(file: ByteSource, part: DeclaredPart): Promise<number> {
  const wanted = localHeaderBytes + Buffer.byteLength(part.name);
  const header = await file.read(part.offset, wanted);
  if (header.length < wanted || header.readUInt32LE(0) !== localHeaderSignature)
    throw unreadable(part.name, 'a local file header where its zip directory points', 'none');
  const nameBytes = header.readUInt16LE(26);
  const extraBytes = header.readUInt16LE(28);
  const localName = header.subarray(localHeaderBytes, localHeaderBytes + nameBytes).toString('utf8');
  if (localName !== part.name)
    throw unreadable(
      part.name,
      'its local file header to name it as its zip directory does',
      JSON.stringify(localName),
    );
  const start = part.offset + localHeaderBytes + nameBytes + extraBytes;
  if (start + part.compressedBytes > (await file.size()))
    throw unreadable(part.name, 'an entry inside the file', 'one past its end');
  return start;
}
