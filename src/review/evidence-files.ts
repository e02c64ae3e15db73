import { lstat, readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** At most this many names are offered, and this many entries of the folder looked at. */
const offered = 50;
const looked = 20_000;

/**
 * Files of the evidence directory whose path holds `text`, for the page's "attach evidence" box
 * (issue 23): paths relative to the directory, as a row names them; regular files only (a
 * symbolic link could lead outside it), never anything outside the directory.
 */
export async function evidenceFiles(evidenceDir: string, text: string): Promise<string[]> {
  const names = await readdir(evidenceDir, { recursive: true }).catch(() => [] as string[]);
  const wanted = text.toLowerCase();
  const found: string[] = [];
  for (const name of names.slice(0, looked)) {
    if (found.length >= offered) break;
    if (!name.toLowerCase().includes(wanted) || name.split(sep).some((part) => part.startsWith('.'))) continue;
    const stats = await lstat(join(evidenceDir, name)).catch(() => undefined);
    if (stats?.isFile() === true) found.push(name.split(sep).join('/'));
  }
  return found.sort();
}
