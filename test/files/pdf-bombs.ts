import { constants, deflateRawSync, deflateSync } from 'node:zlib';

/**
 * Hostile PDFs built in code (nothing binary is committed), each a valid file that pdf-lib would
 * read, at a cost far beyond its size, if nothing stopped it. The objects that matter (a catalog,
 * a page tree of `pages` pages) sit in an object stream at the stream's start, so a file that were
 * read to the end would count as a good PDF of one page: the bomb is in what follows.
 */

const megabyte = 1 << 20;
const adlerModulus = 65_521;

/**
 * zlib data (RFC 1950) that inflates to `prefix` followed by `zeroBytes` zero bytes (a multiple
 * of 1 MiB), about 1,000 times smaller, built in milliseconds: one megabyte of zeros deflated
 * once, ended by a full flush (the next block starts afresh), and that block sequence repeated.
 * The checksum is right, so any inflater reads it to the end.
 */
export function deflatedZeros(zeroBytes: number, prefix: Buffer = Buffer.alloc(0)): Buffer {
  if (zeroBytes % megabyte !== 0) throw new Error(`deflatedZeros: expected a multiple of 1 MiB, got ${zeroBytes}`);
  const fullFlush = { finishFlush: constants.Z_FULL_FLUSH, level: 9 };
  const zeroMegabyte = deflateRawSync(Buffer.alloc(megabyte), fullFlush);
  const parts = [Buffer.from([0x78, 0xda]), deflateRawSync(prefix, fullFlush)];
  for (let index = 0; index < zeroBytes / megabyte; index++) parts.push(zeroMegabyte);
  // The last block: empty, final.
  parts.push(deflateRawSync(Buffer.alloc(0)));
  let a = 1;
  let b = 0;
  for (const byte of prefix) {
    a = (a + byte) % adlerModulus;
    b = (b + a) % adlerModulus;
  }
  b = (b + a * (zeroBytes % adlerModulus)) % adlerModulus;
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(((b << 16) | a) >>> 0);
  parts.push(checksum);
  return Buffer.concat(parts);
}

/** Object stream content (§7.5.7): the catalog (1), the page tree (2) and its pages (3, 4, …). */
export function pageObjects(pages = 1): Buffer {
  const bodies = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Count ${pages} /Kids [${Array.from({ length: pages }, (_, index) => `${index + 3} 0 R`).join(' ')}] >>`,
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>'),
  ];
  let header = '';
  let body = '';
  bodies.forEach((text, index) => {
    header += `${index + 1} ${body.length} `;
    body += `${text}\n`;
  });
  return Buffer.from(`${header}\n${body}`, 'latin1');
}

export interface PdfStream {
  /** The dictionary's entries besides /Length, e.g. `/Type /ObjStm /N 3 /First 12`. */
  entries: string;
  data: Buffer;
}

/**
 * A PDF of the `streams` given (objects 10, 11, …) and a trailer naming object 1 as its root, with
 * no cross-reference table: pdf-lib reads it front to back, as it reads any file whose
 * cross-reference is not a classic table.
 */
export function pdfOfStreams(streams: readonly PdfStream[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  streams.forEach(({ entries, data }, index) => {
    parts.push(
      Buffer.from(`${index + 10} 0 obj\n<< ${entries} /Length ${data.length} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream\nendobj\n', 'latin1'),
    );
  });
  parts.push(Buffer.from('trailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1'));
  return Buffer.concat(parts);
}

/** The dictionary entries of an object stream holding `pageObjects(pages)`. */
export function objectStreamEntries(objects: Buffer, filters: string): string {
  const first = objects.indexOf('\n') + 1;
  const count = (objects.subarray(0, first).toString('latin1').trim().split(/\s+/).length / 2) | 0;
  return `/Type /ObjStm /N ${count} /First ${first} /Filter ${filters}`;
}

/** An object stream of one page's objects then `zeroBytes` of zeros (whitespace to a parser), deflated once. */
export function objectStreamBomb(zeroBytes: number): Buffer {
  const objects = pageObjects();
  return pdfOfStreams([
    { entries: objectStreamEntries(objects, '/FlateDecode'), data: deflatedZeros(zeroBytes, objects) },
  ]);
}

/** The same deflated twice (/Filter [/FlateDecode /FlateDecode]): a few kilobytes for a gigabyte. */
export function doublyDeflatedBomb(zeroBytes: number): Buffer {
  const objects = pageObjects();
  return pdfOfStreams([
    {
      entries: objectStreamEntries(objects, '[/FlateDecode /FlateDecode]'),
      data: deflateSync(deflatedZeros(zeroBytes, objects), { level: 9 }),
    },
  ]);
}

/** `count` object streams, each inflating to `zeroBytesEach`: every one small, all of them not. */
export function manyObjectStreams(count: number, zeroBytesEach: number): Buffer {
  const objects = pageObjects();
  const padding = deflatedZeros(zeroBytesEach);
  return pdfOfStreams([
    { entries: objectStreamEntries(objects, '/FlateDecode'), data: deflateSync(objects) },
    ...Array.from({ length: count }, () => ({
      entries: '/Type /ObjStm /N 0 /First 0 /Filter /FlateDecode',
      data: padding,
    })),
  ]);
}

/** RunLength (§7.4.5): each two bytes `0x81 0x00` decode to 128 zeros, a 64-fold growth without zlib. */
export function runLengthBomb(encodedBytes: number): Buffer {
  const objects = pageObjects();
  const runs = Buffer.alloc(encodedBytes);
  for (let index = 0; index < encodedBytes; index += 2) runs[index] = 0x81;
  // Literal runs of at most 128 bytes: a length byte n (0–127), then n + 1 bytes.
  const literal: Buffer[] = [];
  for (let start = 0; start < objects.length; start += 128) {
    const piece = objects.subarray(start, start + 128);
    literal.push(Buffer.from([piece.length - 1]), piece);
  }
  const data = Buffer.concat([...literal, runs, Buffer.from([0x80])]);
  return pdfOfStreams([{ entries: objectStreamEntries(objects, '/RunLengthDecode'), data }]);
}

/** An object stream that declares `declared` objects (/N) for the three it holds. */
export function objectCountBomb(declared: number): Buffer {
  const objects = pageObjects();
  const entries = objectStreamEntries(objects, '/FlateDecode').replace(/\/N \d+/, `/N ${declared}`);
  return pdfOfStreams([{ entries, data: deflateSync(objects) }]);
}

/**
 * A cross-reference stream whose /Index declares `declared` entries in 3 bytes of data: pdf-lib's
 * parser makes an entry object (and interns a reference) for each, data or not.
 */
export function crossReferenceCountBomb(declared: number): Buffer {
  const objects = pageObjects();
  return pdfOfStreams([
    { entries: objectStreamEntries(objects, '/FlateDecode'), data: deflateSync(objects) },
    {
      entries: `/Type /XRef /Size ${declared} /Index [0 ${declared}] /W [1 1 1] /Root 1 0 R`,
      data: Buffer.from([1, 0, 0]),
    },
  ]);
}
