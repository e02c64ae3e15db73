import { lstat, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { codeOf } from '../errors/coded-error.js';
import { PruneUnreadableError } from './errors.js';

/** A regular file found under the paths given, with its size and modification time. */
export interface FoundFile {
  readonly path: string;
  readonly bytes: number;
  readonly modified: Date;
}

export interface FoundFiles {
  readonly files: FoundFile[];
  /** Symbolic links met: never followed, never removed (docs/data.md, "Retention"). */
  readonly links: string[];
}

/** Folders this deep below a path given are not walked: a night's folder holds jobs, not trees. */
const maximumDepth = 8;
/** Entries walked in all before prune stops: a path given by mistake (`/`) is refused, not walked for hours. */
const maximumEntries = 2_000_000;

/**
 * Every regular file under `paths` (a folder is walked, a file taken as it is), in a stable order.
 * A link is listed and passed over, whatever it points to; a folder that cannot be listed stops
 * prune (exit 2) before it changed anything.
 */
export async function findFiles(paths: readonly string[]): Promise<FoundFiles> {
  const files: FoundFile[] = [];
  const links: string[] = [];
  let entries = 0;
  const visit = async (path: string, depth: number): Promise<void> => {
    if (++entries > maximumEntries)
      throw new PruneUnreadableError(
        `${paths.join(', ')}: expected folders of jobs, got more than ${maximumEntries.toLocaleString('en')} entries: nothing was changed; give the folders the jobs write to`,
      );
    const found = await lstat(path).catch((error: unknown) => {
      throw unreadable(path, error);
    });
    if (found.isSymbolicLink()) {
      links.push(path);
      return;
    }
    if (found.isFile()) {
      files.push({ path, bytes: found.size, modified: found.mtime });
      return;
    }
    if (!found.isDirectory() || depth >= maximumDepth) return;
    const names = await readdir(path).catch((error: unknown) => {
      throw unreadable(path, error);
    });
    for (const name of names.sort()) await visit(join(path, name), depth + 1);
  };
  for (const path of paths) await visit(resolve(path), 0);
  return { files, links };
}

function unreadable(path: string, error: unknown): PruneUnreadableError {
  const code = codeOf(error);
  const why =
    code === 'ENOENT'
      ? 'nothing there'
      : code === 'EACCES' || code === 'EPERM'
        ? 'no permission to read it'
        : (code ?? String(error));
  return new PruneUnreadableError(
    `${path}: expected a folder or file prune can read, got ${why}: nothing was changed`,
    {
      cause: error,
    },
  );
}
