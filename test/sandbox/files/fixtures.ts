import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';

/**
 * Real, small files of each accepted type, built in code so their provenance is plain and no
 * binary fixture has to be trusted. Each is checked to decode (pdf-lib embeds both images).
 */

/** A 1×1 RGB PNG: signature, IHDR, one deflated scanline, IEND (ISO/IEC 15948). */
export function pngBytes(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter method, no interlace
  const scanline = Buffer.from([0, 0x2a, 0x6f, 0xb4]); // filter byte, then one pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanline)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, checksum]);
}

/**
 * An 8×8 mid-grey baseline JPEG (ITU T.81): one component, a quantisation table of ones, and
 * Huffman tables holding a single 1-bit code each, so the only block is "DC difference 0, then
 * end of block": bits 00, padded with ones to 0x3f.
 */
export function jpegBytes(): Buffer {
  const marker = (code: number, payload: number[]) => [
    0xff,
    code,
    (payload.length + 2) >> 8,
    (payload.length + 2) & 0xff,
    ...payload,
  ];
  const oneCodeTable = (tableClassAndId: number) => [tableClassAndId, 1, ...new Array<number>(15).fill(0), 0x00];
  return Buffer.from([
    0xff,
    0xd8, // SOI
    ...marker(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // APP0 JFIF
    ...marker(0xdb, [0x00, ...new Array<number>(64).fill(1)]), // DQT 0
    ...marker(0xc0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]), // SOF0: 8 bits, 8×8, 1 component
    ...marker(0xc4, oneCodeTable(0x00)), // DHT DC 0: the code 0 means category 0
    ...marker(0xc4, oneCodeTable(0x10)), // DHT AC 0: the code 0 means end of block
    ...marker(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
    0x3f,
    0xff,
    0xd9, // EOI
  ]);
}

/**
 * A PDF with `pageCount` blank pages as pdf-lib writes it by default: page objects inside
 * compressed object streams, indexed by a cross-reference stream, so no page is visible to a
 * text search for "/Type /Page".
 */
export async function pdfBytes(pageCount: number): Promise<Buffer> {
  const document = await PDFDocument.create();
  for (let index = 0; index < pageCount; index++) document.addPage([200, 200]);
  return Buffer.from(await document.save({ useObjectStreams: true }));
}
