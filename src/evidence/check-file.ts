import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileSizeLimitBytes } from '../files/limits.js';
import { checkEvidenceContent, type EvidenceFileResult } from './check-content.js';
import { fileTooLarge, notAFile, type EvidenceFailure } from './errors.js';
import { describeFileKind, errorCode, fileSystemFailure } from './fs-failures.js';

/**
 * Reads an evidence file, already confined by confineEvidencePath (or resolveEvidencePath), and
 * checks it. Memory is bounded by the size limit whatever the file's size: at most
 * `fileSizeLimitBytes` are read, and reaching that many already means "too large" (the limit is
 * "under 4.5 MB").
 */

/**
 * O_NOFOLLOW: if the file was swapped for a symbolic link after its path was checked, the open
 * fails (ELOOP) instead of following it outside the evidence directory. It guards the last
 * component only; the directories above belong to whoever runs the import.
 * O_NONBLOCK: opening a named pipe for reading waits for a writer, possibly forever; with it the
 * open returns at once and fstat refuses the pipe. It changes nothing for a regular file.
 * Both are undefined on Windows, where `|` treats them as 0.
 */
const openFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** What a file that grew after its stat is read on in: the rest is bounded by the size limit anyway. */
const readChunkBytes = 1024 * 1024;

/** `cell` names the file in messages, by default the path itself; `where`, the folder it was looked for in. */
export async function readEvidenceFile(
  path: string,
  cell: string = path,
  where: string = dirname(path),
): Promise<EvidenceFileResult> {
  let handle: FileHandle;
  try {
    handle = await open(path, openFlags);
  } catch (error) {
    if (errorCode(error) === 'ELOOP') return notAFile(cell, 'a symbolic link (the path changed after it was checked)');
    return fileSystemFailure(cell, error, where);
  }
  try {
    const read = await readBounded(handle, cell);
    return Buffer.isBuffer(read) ? await checkEvidenceContent(read, cell) : read;
  } finally {
    await handle.close();
  }
}

async function readBounded(handle: FileHandle, cell: string): Promise<Buffer | EvidenceFailure> {
  const stats = await handle.stat();
  if (!stats.isFile()) return notAFile(cell, describeFileKind(stats));
  // Known too large without reading a byte; the bounded read below still covers a file that grows.
  if (stats.size >= fileSizeLimitBytes) return fileTooLarge(cell, fileSizeLimitBytes, stats.size, false);

  // One buffer of the size the file says, read into directly: no chunks to concatenate, nothing
  // zero-filled first (each copy slowed evidence uploads). Its one byte more notices a file that
  // grew since: the rest is then read as it comes, still bounded by the limit. Once the bytes the
  // size says are in, no read is made to find the end: a file that grew fills the byte more.
  const buffer = Buffer.allocUnsafe(stats.size + 1);
  let totalBytes = await readInto(handle, buffer, 0, stats.size);
  if (totalBytes < buffer.length) return buffer.subarray(0, totalBytes);
  const chunks = [buffer];
  while (totalBytes < fileSizeLimitBytes) {
    const chunk = Buffer.allocUnsafe(Math.min(readChunkBytes, fileSizeLimitBytes - totalBytes));
    const bytesRead = await readInto(handle, chunk, 0);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    totalBytes += bytesRead;
  }
  if (totalBytes >= fileSizeLimitBytes) return fileTooLarge(cell, fileSizeLimitBytes, totalBytes, true);
  return Buffer.concat(chunks, totalBytes);
}

/**
 * Fills `buffer` from `offset` until it is full, the file ends or `enough` bytes are in; the bytes
 * now in it. Each read asks for all that is left (a regular file gives it in one): every read is
 * a trip through libuv's thread pool, and 1 MB reads took four of them for a 3 MB file instead of
 * two.
 */
async function readInto(
  handle: FileHandle,
  buffer: Buffer,
  offset: number,
  enough: number = buffer.length,
): Promise<number> {
  let filled = offset;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
    if (bytesRead === 0) break;
    filled += bytesRead;
    if (filled === enough) break;
  }
  return filled;
}
