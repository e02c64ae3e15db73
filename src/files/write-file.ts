import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { temporaryFlags } from './own-file.js';

/**
 * Writes beside the target, then renames: a reader never sees half a page. Readable by the owner
 * only unless `mode` says otherwise: a report lists rows with their messages.
 */
export async function writeFileAtomic(file: string, text: string, mode = 0o600): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    // Exclusively (own-file.ts): a link planted at the temporary name is never followed.
    await writeFile(temporary, text, { encoding: 'utf8', mode, flag: temporaryFlags });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
