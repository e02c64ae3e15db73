import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { findCardNumbers } from '../../src/card-numbers/find.js';
import { fileKindOf } from '../../src/files/file-kind.js';

/**
 * Every file under a folder as text, to look for card numbers in: SQLite files table by table
 * (every text column), workbooks and other zips entry by entry, the rest as UTF-8.
 */

export interface FileText {
  /** The path under the folder, and for a database or a zip the table or entry. */
  readonly where: string;
  readonly text: string;
}

export async function everyFile(folder: string): Promise<FileText[]> {
  const texts: FileText[] = [];
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const name = relative(folder, file);
    const bytes = await readFile(file);
    const kind = fileKindOf(bytes);
    if (kind === 'sqlite') texts.push(...tablesOf(file, name));
    else if (kind === 'zip') texts.push(...zipEntries(bytes, name));
    else texts.push({ where: name, text: bytes.toString('utf8') });
  }
  return texts;
}

/** Each table's text columns, one text per table. */
function tablesOf(file: string, name: string): FileText[] {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    return tables.map((table) => {
      const rows = database.prepare(`SELECT * FROM "${table.name}"`).all() as Record<string, unknown>[];
      const text = rows.flatMap((row) => Object.values(row).filter((value) => typeof value === 'string')).join('\n');
      return { where: `${name} table ${table.name}`, text };
    });
  } finally {
    database.close();
  }
}

/** A zip's entries, read through its central directory (stored or deflated). */
function zipEntries(zip: Buffer, name: string): FileText[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: FileText[] = [];
  for (let index = 0; index < count; index++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    entries.push({
      where: `${name} entry ${entryName}`,
      text: (method === 8 ? inflateRawSync(data) : data).toString('utf8'),
    });
    at += 46 + nameLength + extra;
  }
  return entries;
}

/** The card numbers found in each text, by where they were found; texts with none left out. */
export function cardNumbersIn(texts: readonly FileText[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const { where, text } of texts) {
    const digits = findCardNumbers(text).map((number) => number.digits);
    if (digits.length > 0) found.set(where, digits);
  }
  return found;
}
