import { open } from 'node:fs/promises';

/**
 * What a file on disk is, by its first bytes alone, never by its name: a results CSV may be called
 * `*.sqlite`, and a journal anything. The report, merge-results and the review tell a job's
 * journal (SQLite) and a workbook (a zip) from a results CSV this way.
 */

const sqliteMagic = Buffer.from('SQLite format 3\0', 'latin1');
/** Office Open XML is a zip: its first entry's local header. */
const zipMagic = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** The old binary Office format (.xls), which only a spreadsheet reads. */
const compoundFileMagic = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** What a file's first bytes say it is: SQLite, a zip (an .xlsx), an old .xls, or none of these. */
export function fileKindOf(head: Uint8Array): 'sqlite' | 'zip' | 'xls' | undefined {
  if (headStartsWith(head, sqliteMagic)) return 'sqlite';
  if (headStartsWith(head, zipMagic)) return 'zip';
  if (headStartsWith(head, compoundFileMagic)) return 'xls';
  return undefined;
}

function headStartsWith(head: Uint8Array, magic: Buffer): boolean {
  return head.length >= magic.length && magic.equals(head.subarray(0, magic.length));
}

export async function isSqlite(file: string): Promise<boolean> {
  return fileKindOf(await headOf(file, sqliteMagic.length)) === 'sqlite';
}

export async function isZip(file: string): Promise<boolean> {
  return fileKindOf(await headOf(file, zipMagic.length)) === 'zip';
}

/** A file's first `bytes` (fewer when it is shorter). */
export async function headOf(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(head, 0, bytes, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
