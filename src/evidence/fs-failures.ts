import type { Stats } from 'node:fs';
import { notAFile, notFound, pathInvalid, unreadable, type EvidenceFailure } from './errors.js';

/**
 * File-system errors that concern one evidence file become that row's failure. Anything else
 * (EIO, EMFILE, ENOMEM, ...) is about the machine, not the row, and is thrown for the run to stop
 * (row failures are values, run failures are thrown). `where` names the folder searched
 * (errors.ts, describeEvidenceDir).
 */
export function fileSystemFailure(cell: string, error: unknown, where?: string): EvidenceFailure {
  switch (errorCode(error)) {
    // ENOTDIR: a component of the path is a file, e.g. `scan.pdf/page1.png`.
    case 'ENOENT':
    case 'ENOTDIR':
      return notFound(cell, where);
    case 'EISDIR':
      return notAFile(cell, 'a directory');
    case 'ELOOP':
      return unreadable(cell, 'a loop of symbolic links');
    case 'EACCES':
    case 'EPERM':
      return unreadable(cell, 'permission denied');
    case 'ENAMETOOLONG':
      return pathInvalid(cell, 'a path too long for the file system');
    default:
      throw error;
  }
}

export function errorCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** What a path is, for the "got …" of evidence_not_a_file (and of a bad --evidence-dir). */
export function describeFileKind(stats: Stats): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'neither a file nor a directory';
}
