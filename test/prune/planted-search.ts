import { createRequire } from 'node:module';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where planted values are, in raw bytes: every file under the folder (SQLite databases and their
 * `-wal` and `-shm` read as bytes, free pages included), each value looked for as UTF-8, UTF-16LE
 * and UTF-16BE (SQLite's text encodings). A zip (an .xlsx, told by its signature, whatever its
 * name) is looked into too: its entries are deflated, so each is inflated with unzipper
 * (exceljs's own zip library, a dependency already) and searched the same way.
 */

interface ZipEntry {
  readonly path: string;
  readonly type: 'Directory' | 'File';
  buffer(): Promise<Buffer>;
}

interface Unzipper {
  readonly Open: { buffer(data: Buffer): Promise<{ files: ZipEntry[] }> };
}

const zipSignature = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export async function plantedValuesIn(folder: {
  dir: string;
  planted: readonly string[];
}): Promise<Array<[string, string]>> {
  const forms = folder.planted.map((value) => ({ value, encodings: encodedForms(value) }));
  const found: Array<[string, string]> = [];
  for (const file of await filesUnder(folder.dir)) {
    const bytes = await readFile(file);
    const parts = [bytes, ...(await inflatedEntries(bytes))];
    for (const { value, encodings } of forms)
      if (parts.some((part) => encodings.some((encoded) => part.includes(encoded)))) found.push([file, value]);
  }
  return found;
}

function encodedForms(value: string): Buffer[] {
  const littleEndian = Buffer.from(value, 'utf16le');
  return [Buffer.from(value, 'utf8'), littleEndian, Buffer.from(littleEndian).swap16()];
}

/** Every regular file under `dir`, however deep, as absolute paths. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

async function inflatedEntries(bytes: Buffer): Promise<Buffer[]> {
  if (!bytes.subarray(0, 4).equals(zipSignature)) return [];
  const unzipper = createRequire(import.meta.url)('unzipper') as Unzipper;
  const { files } = await unzipper.Open.buffer(bytes);
  return Promise.all(files.filter((entry) => entry.type === 'File').map(async (entry) => entry.buffer()));
}
