import { lstat, unlink } from 'node:fs/promises';
import { codeOf } from '../errors/coded-error.js';

/**
 * Deletes a file prune recognised, if what stands there still is a regular file: a link put in
 * its place since is left, and so is a folder. Returns the bytes freed (0 when nothing was there).
 */
export async function deleteOwnFile(path: string): Promise<number> {
  const found = await lstat(path).catch((error: unknown) => {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  });
  if (found === undefined || !found.isFile()) return 0;
  await unlink(path).catch((error: unknown) => {
    if (codeOf(error) !== 'ENOENT') throw error;
  });
  return found.size;
}
