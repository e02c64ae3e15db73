import { writeFile } from 'node:fs/promises';
import { replaceFile, temporaryFlags } from './own-file.js';

/**
 * Writes beside the target, then renames (`replaceFile`): a reader never sees half a page, and a
 * link at the target is replaced, never followed. Readable by the owner only unless `mode` says
 * otherwise: a report lists rows with their messages.
 */
export async function writeFileAtomic(file: string, text: string, mode = 0o600): Promise<void> {
  await replaceFile(file, async (temporary) =>
    writeFile(temporary, text, { encoding: 'utf8', mode, flag: temporaryFlags }),
  );
}
