import { open } from 'node:fs/promises';

/**
 * What a file on disk is, by its first bytes alone, never by its name: a results CSV may be called
 * `*.sqlite`, and a journal anything. The report, merge-results and the review tell a job's
 * journal (SQLite) and a workbook (a zip) from a results CSV this way.
 */

const sqliteMagic = Buffer.from('SQLite format 3\0', 'latin1');
/** Office Open XML is a zip: its first entry's local header. */
const zipMagic = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export async function isSqlite(file: string): Promise<boolean> {
  return startsWith(file, sqliteMagic);
}

export async function isZip(file: string): Promise<boolean> {
  return startsWith(file, zipMagic);
}

async function startsWith(file: string, magic: Buffer): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(magic.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(magic);
  } finally {
    await handle.close();
  }
}
