import { writeFile } from 'node:fs/promises';
import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Workbooks written by hand, zip and XML, so that a test can make one a spreadsheet never would: a
 * part that inflates to gigabytes from a few megabytes, a directory that lies about a size, a
 * local header that names another part. Nothing here is committed as a binary: every file is made
 * by the test that reads it.
 */

export interface ZipEntry {
  readonly name: string;
  /** The entry's bytes as stored: raw deflate. */
  readonly deflated: Buffer;
  readonly inflatedBytes: number;
  readonly crc: number;
  /** What the central directory (and the local header) say it inflates to, when not the truth. */
  readonly declaredInflatedBytes?: number;
  /** The name its local header gives, when not the directory's. */
  readonly localName?: string;
}

/** A part deflated as a zip stores it. */
export function deflatedEntry(name: string, text: string): ZipEntry {
  const bytes = Buffer.from(text, 'utf8');
  return { name, deflated: deflateRawSync(bytes), inflatedBytes: bytes.length, crc: crc32(bytes) };
}

const mib = 1024 * 1024;

/**
 * A part of `prefix`, then `unit` repeated to about `repeatedBytes`, then `suffix`, deflated
 * without ever holding what it inflates to: one mebibyte of the repeat is deflated once with a
 * full flush (byte-aligned, no reference to what came before), and that piece is stored as many
 * times as it takes. Repeats deflate about 1000:1, so a gibibyte costs a megabyte. Its CRC is not
 * computed (0): no reader here checks one.
 */
export function repeatedEntry(
  name: string,
  parts: { prefix: string; unit: string; repeatedBytes: number; suffix: string },
): ZipEntry {
  const flushed = (text: string) => deflateRawSync(Buffer.from(text, 'utf8'), { finishFlush: constants.Z_FULL_FLUSH });
  const chunk = Buffer.from(parts.unit.repeat(Math.ceil(mib / parts.unit.length)), 'utf8');
  const piece = flushed(chunk.toString('utf8'));
  const pieces = Math.max(1, Math.round(parts.repeatedBytes / chunk.length));
  const head = flushed(parts.prefix);
  const tail = deflateRawSync(Buffer.from(parts.suffix, 'utf8'));
  const deflated = Buffer.concat([head, ...Array.from({ length: pieces }, () => piece), tail]);
  const inflatedBytes = Buffer.byteLength(parts.prefix) + pieces * chunk.length + Buffer.byteLength(parts.suffix);
  return { name, deflated, inflatedBytes, crc: 0 };
}

/** A zip of the entries, in order: local headers and data, then the central directory. */
export async function writeZip(file: string, entries: readonly ZipEntry[]): Promise<void> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const declared = entry.declaredInflatedBytes ?? entry.inflatedBytes;
    const local = header(0x04034b50, entry, entry.localName ?? entry.name, declared);
    locals.push(local, entry.deflated);
    centrals.push(header(0x02014b50, entry, entry.name, declared, offset));
    offset += local.length + entry.deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  await writeFile(file, Buffer.concat([...locals, directory, end]));
}

function header(signature: number, entry: ZipEntry, name: string, declared: number, offset?: number): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const central = offset !== undefined;
  const fixed = central ? 46 : 30;
  const record = Buffer.alloc(fixed + nameBytes.length);
  record.writeUInt32LE(signature, 0);
  let at = 4;
  if (central) {
    record.writeUInt16LE(20, at);
    at += 2;
  }
  record.writeUInt16LE(20, at);
  record.writeUInt16LE(0, at + 2);
  record.writeUInt16LE(8, at + 4);
  record.writeUInt16LE(0, at + 6);
  record.writeUInt16LE(0x21, at + 8);
  record.writeUInt32LE(entry.crc, at + 10);
  record.writeUInt32LE(entry.deflated.length, at + 14);
  record.writeUInt32LE(declared, at + 18);
  record.writeUInt16LE(nameBytes.length, at + 22);
  record.writeUInt16LE(0, at + 24);
  if (central) record.writeUInt32LE(offset, 42);
  nameBytes.copy(record, fixed);
  return record;
}

const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const relationships = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The parts of a one-sheet workbook around its sheet and its shared strings, as a spreadsheet writes them. */
export function workbookFrame(): ZipEntry[] {
  return [
    deflatedEntry(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
        '</Types>',
    ),
    deflatedEntry(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rId1" Type="${relationships}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    deflatedEntry(
      'xl/workbook.xml',
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${main}" xmlns:r="${relationships}">` +
        '<sheets><sheet name="Disputes" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    deflatedEntry(
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rId1" Type="${relationships}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${relationships}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ),
  ];
}

/** Escaped for XML text. */
function xmlText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function columnName(column: number): string {
  let name = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26))
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  return name;
}

/**
 * A sheet whose every cell is a shared string, and the table it reads them from, as Excel and
 * LibreOffice write them: cell `A1` is string 0, and so on, row by row.
 */
export function sharedStringSheet(rows: readonly (readonly string[])[]): { sheet: string; strings: string[] } {
  const strings: string[] = [];
  const sheetRows = rows.map((cells, row) => {
    const xml = cells.map((cell, column) => {
      strings.push(cell);
      return `<c r="${columnName(column + 1)}${row + 1}" t="s"><v>${strings.length - 1}</v></c>`;
    });
    return `<row r="${row + 1}">${xml.join('')}</row>`;
  });
  return {
    sheet: `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${main}"><sheetData>${sheetRows.join('')}</sheetData></worksheet>`,
    strings,
  };
}

/** The opening of a shared-strings table of `strings`, to which more `<si>` may be added before `sharedStringsEnd`. */
export function sharedStringsStart(strings: readonly string[]): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${main}">` +
    strings.map((text) => `<si><t>${xmlText(text)}</t></si>`).join('')
  );
}

export const sharedStringsEnd = '</sst>';
