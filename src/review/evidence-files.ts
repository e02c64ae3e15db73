import { opendir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isObjectAddress } from '../storage/object-address.js';

/** At most this many names are offered, and this many entries of the folder looked at. */
const offered = 50;
const looked = 20_000;

/**
 * Files of the evidence folder whose path holds `text`, for the page's "attach evidence" box: paths
 * relative to the folder, as a row names them; regular files only (a symbolic link could lead
 * outside it; `opendir` does not follow them), hidden ones left out; the walk stops after `looked`
 * entries, so a huge folder costs no more than that. An s3:// prefix offers nothing: its keys are
 * not listed for a box that asks on every keystroke; a key typed in is checked as the import would.
 */
export async function evidenceFiles(evidenceDir: string, text: string): Promise<string[]> {
  if (isObjectAddress(evidenceDir)) return [];
  const wanted = text.toLowerCase();
  const found: string[] = [];
  let seen = 0;
  try {
    for await (const entry of await opendir(evidenceDir, { recursive: true, bufferSize: 256 })) {
      if (++seen > looked || found.length >= offered) break;
      if (!entry.isFile()) continue;
      const path = relative(evidenceDir, join(entry.parentPath, entry.name));
      if (path.split(sep).some((part) => part.startsWith('.')) || !path.toLowerCase().includes(wanted)) continue;
      found.push(path.split(sep).join('/'));
    }
  } catch {
    // No folder, or one that cannot be read: nothing to offer (the row's check says why a path fails).
  }
  return found.sort();
}
