const localHeaderSignature = 0x04034b50;
/** 1980-01-01, the first date a zip can hold: the stream exceljs reads has no use for dates. */
const firstDosDate = 0x21;
const utf8Names = 0x0800;

/**
 * The local file header of a zip entry stored as it is (method 0), of a size known before its
 * bytes: what exceljs's streaming reader (unzipper's `Parse`) reads before an entry's bytes. It
 * reads no CRC (none is written: the bytes were counted as they were inflated), no central
 * directory, and ends at the stream's end.
 */
export function storedEntryHeader(name: string, bytes: number): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const header = Buffer.alloc(30 + nameBytes.length);
  header.writeUInt32LE(localHeaderSignature, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(utf8Names, 6);
  header.writeUInt16LE(0, 8);
  header.writeUInt16LE(0, 10);
  header.writeUInt16LE(firstDosDate, 12);
  header.writeUInt32LE(0, 14);
  header.writeUInt32LE(bytes, 18);
  header.writeUInt32LE(bytes, 22);
  header.writeUInt16LE(nameBytes.length, 26);
  header.writeUInt16LE(0, 28);
  nameBytes.copy(header, 30);
  return header;
}

/**
 * The end-of-central-directory record, of no entries: where unzipper's `Parse` ends a zip. Written
 * only when every part passed, so a stream cut at a limit ends without it and exceljs fails there.
 */
export function endOfDirectory(): Buffer {
  const record = Buffer.alloc(22);
  record.writeUInt32LE(0x06054b50, 0);
  return record;
}
