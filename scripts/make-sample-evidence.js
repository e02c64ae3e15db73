// Writes the evidence files of the shipped samples (samples/evidence/): small, genuinely valid
// JPEG, PNG and PDF files, byte for byte the same on every run. Run once after changing it:
//   node scripts/make-sample-evidence.js
// The images are stand-ins (a photographed till receipt, a screenshot of an email) drawn as
// blocks, not text; the PDFs carry real text. No dependency beyond pdf-lib: the JPEG encoder is
// a plain baseline (sequential DCT, Huffman) grayscale one with the standard tables of
// ITU-T T.81 Annex K, and the PNG writer uses node:zlib for deflate and CRC-32.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

const evidenceDir = fileURLToPath(new URL('../samples/evidence/', import.meta.url));

/** Seeded, so the "photo" noise is the same on every run (mulberry32). */
function random(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A canvas of `channels` bytes per pixel with the one drawing operation the samples need. */
function canvas(width, height, channels, background) {
  const pixels = new Uint8Array(width * height * channels);
  const fill = (x, y, w, h, color) => {
    for (let row = Math.max(0, y); row < Math.min(height, y + h); row++) {
      for (let column = Math.max(0, x); column < Math.min(width, x + w); column++)
        pixels.set(color, (row * width + column) * channels);
    }
  };
  fill(0, 0, width, height, background);
  return { width, height, channels, pixels, fill };
}

/** Lines of "text" as bars of seeded lengths. */
function textLines(image, { x, y, maxWidth, lines, gap, color, next }) {
  for (let line = 0; line < lines; line++)
    image.fill(x, y + line * gap, Math.round(maxWidth * (0.45 + 0.55 * next())), 4, color);
}

// --- JPEG (baseline, one component) ---------------------------------------------------------

const zigzag = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
  35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
  55, 62, 63,
];
const luminanceQuant = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51,
  87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101,
  72, 92, 95, 98, 112, 100, 103, 99,
];
const dcTable = {
  bits: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
  values: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
};
const acTable = {
  bits: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d],
  values: Buffer.from(
    '01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9fa',
    'hex',
  ),
};

/** Code and length per symbol (T.81 Annex C). */
function huffmanCodes({ bits, values }) {
  const codes = new Map();
  let code = 0;
  let index = 0;
  bits.forEach((count, lengthLess1) => {
    for (let n = 0; n < count; n++) codes.set(values[index++], { code: code++, length: lengthLess1 + 1 });
    code <<= 1;
  });
  if (index !== values.length) throw new Error(`huffman table: expected ${index} values, got ${values.length}`);
  return codes;
}

function bitWriter() {
  const bytes = [];
  let buffer = 0;
  let count = 0;
  const write = (value, length) => {
    for (let bit = length - 1; bit >= 0; bit--) {
      buffer = (buffer << 1) | ((value >> bit) & 1);
      if (++count === 8) {
        bytes.push(buffer);
        if (buffer === 0xff) bytes.push(0); // byte stuffing (T.81 F.1.2.3)
        buffer = 0;
        count = 0;
      }
    }
  };
  const finish = () => {
    if (count > 0) write(0x7f, 8 - count); // pad with 1-bits
    return Buffer.from(bytes);
  };
  return { write, finish };
}

const cosines = Array.from({ length: 64 }, (_, index) =>
  Math.cos(((2 * (index >> 3) + 1) * (index & 7) * Math.PI) / 16),
);

function forwardDct(block) {
  const out = new Float64Array(64);
  for (let v = 0; v < 8; v++) {
    for (let u = 0; u < 8; u++) {
      let sum = 0;
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) sum += block[y * 8 + x] * cosines[x * 8 + u] * cosines[y * 8 + v];
      out[v * 8 + u] = 0.25 * (u === 0 ? Math.SQRT1_2 : 1) * (v === 0 ? Math.SQRT1_2 : 1) * sum;
    }
  }
  return out;
}

const magnitude = (value) => (value === 0 ? 0 : 32 - Math.clz32(Math.abs(value)));

function segment(marker, body) {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(marker, 0);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

function encodeJpeg({ width, height, pixels }, quality) {
  const scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
  const quant = luminanceQuant.map((base) => Math.min(255, Math.max(1, Math.floor((base * scale + 50) / 100))));
  const [dcCodes, acCodes] = [huffmanCodes(dcTable), huffmanCodes(acTable)];
  const bits = bitWriter();
  const emit = (codes, symbol) => bits.write(codes.get(symbol).code, codes.get(symbol).length);
  const emitValue = (value, size) => bits.write(value < 0 ? value + (1 << size) - 1 : value, size);
  let previousDc = 0;
  for (let top = 0; top < height; top += 8) {
    for (let left = 0; left < width; left += 8) {
      const block = Array.from(
        { length: 64 },
        (_, index) =>
          pixels[Math.min(height - 1, top + (index >> 3)) * width + Math.min(width - 1, left + (index & 7))] - 128,
      );
      const coefficients = forwardDct(block).map((value, index) => Math.round(value / quant[index]));
      const dcDiff = coefficients[0] - previousDc;
      previousDc = coefficients[0];
      emit(dcCodes, magnitude(dcDiff));
      emitValue(dcDiff, magnitude(dcDiff));
      let run = 0;
      for (let k = 1; k < 64; k++) {
        const value = coefficients[zigzag[k]];
        if (value === 0) {
          run++;
          continue;
        }
        for (; run > 15; run -= 16) emit(acCodes, 0xf0);
        emit(acCodes, (run << 4) | magnitude(value));
        emitValue(value, magnitude(value));
        run = 0;
      }
      if (run > 0) emit(acCodes, 0x00);
    }
  }
  const frame = Buffer.from([8, height >> 8, height & 255, width >> 8, width & 255, 1, 1, 0x11, 0]);
  const huffman = (tableClass, { bits: counts, values }) =>
    Buffer.concat([Buffer.from([tableClass << 4, ...counts]), Buffer.from(values)]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xffe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0])),
    segment(0xffdb, Buffer.from([0, ...zigzag.map((index) => quant[index])])),
    segment(0xffc0, frame),
    segment(0xffc4, Buffer.concat([huffman(0, dcTable), huffman(1, acTable)])),
    segment(0xffda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
    bits.finish(),
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** A till receipt lying on a table, photographed: grey paper, bars of print, a little noise. */
function receiptPhoto(seed, lines) {
  const next = random(seed);
  const image = canvas(160, 240, 1, [78]);
  image.fill(24, 10, 112, 222, [236]);
  image.fill(44, 20, 72, 8, [60]); // the shop's name
  textLines(image, { x: 34, y: 40, maxWidth: 90, lines: 3, gap: 9, color: [120], next });
  for (let x = 34; x < 126; x += 6) image.fill(x, 72, 3, 2, [110]);
  textLines(image, { x: 34, y: 82, maxWidth: 90, lines, gap: 10, color: [90], next });
  image.fill(34, 92 + lines * 10, 92, 7, [50]); // the total
  textLines(image, { x: 34, y: 116 + lines * 10, maxWidth: 70, lines: 2, gap: 9, color: [140], next });
  for (let index = 0; index < image.pixels.length; index++)
    image.pixels[index] = Math.max(0, Math.min(255, image.pixels[index] + Math.round((next() - 0.5) * 6)));
  return encodeJpeg(image, 70);
}

// --- PNG (8-bit RGB, no filtering) -------------------------------------------------------------

function chunk(type, data) {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function encodePng({ width, height, pixels }) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type 2 (RGB)
  const rows = Buffer.concat(
    Array.from({ length: height }, (_, row) =>
      Buffer.concat([Buffer.from([0]), pixels.subarray(row * width * 3, (row + 1) * width * 3)]),
    ),
  );
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A screenshot of an email from a merchant: brand bar, subject, sender, body, signature. */
function emailScreenshot(seed, brand) {
  const next = random(seed);
  const image = canvas(360, 220, 3, [255, 255, 255]);
  image.fill(0, 0, 360, 26, brand);
  image.fill(14, 38, 210, 8, [40, 40, 40]);
  image.fill(14, 54, 140, 5, [130, 130, 130]);
  image.fill(14, 66, 332, 1, [220, 220, 220]);
  textLines(image, { x: 14, y: 80, maxWidth: 330, lines: 6, gap: 12, color: [90, 90, 90], next });
  textLines(image, { x: 14, y: 164, maxWidth: 260, lines: 2, gap: 12, color: [90, 90, 90], next });
  image.fill(14, 194, 14, 14, brand);
  image.fill(34, 198, 90, 5, [120, 120, 120]);
  return encodePng(image);
}

// --- PDF ----------------------------------------------------------------------------------------

/** A receipt or invoice: each page a title and lines of text. Metadata fixed, so bytes are too. */
async function documentPdf(title, pages) {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(title);
  pdf.setProducer('bulk-disputes scripts/make-sample-evidence.js');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (const lines of pages) {
    const page = pdf.addPage([420, 595]);
    page.drawText(title, { x: 36, y: 550, size: 14, font: bold, color: rgb(0.1, 0.1, 0.1) });
    lines.forEach((line, index) => page.drawText(line, { x: 36, y: 520 - index * 16, size: 10, font }));
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

const files = {
  'receipts/sakuragawa-folio.pdf': () =>
    documentPdf('Hotel Sakuragawa - Guest folio', [
      [
        'Folio 2026-1012-0417',
        'Guest: Haruto Sato',
        'Stay: 10-12 Oct 2026, 2 nights, twin room',
        '',
        'Room charge              JPY 38,500',
        'Paid by Visa ending 0931  JPY 38,500',
        'Balance                  JPY 0',
        '',
        'One payment taken at check-out on 12 Oct 2026.',
      ],
    ]),
  'receipts/northwind-invoice-NW-48213.pdf': () =>
    documentPdf('Northwind Outfitters - Invoice NW-48213', [
      [
        'Order NW-48213, 5 Oct 2026',
        'Ship to: Jonas Becker, Berlin',
        '',
        '1 x Trail jacket, waterproof, size L     EUR 149.00',
        '1 x Merino base layer, size L           EUR 64.95',
        '',
        'Each item charged when it shipped.',
        'Paid by Mastercard ending 5287.',
      ],
      [
        'Returns and product descriptions',
        '',
        'Items must match their description on the product page.',
        'Items that do not may be returned within 30 days',
        'for a full refund.',
      ],
    ]),
  'receipts/tsubame-electronics-receipt.pdf': () =>
    documentPdf('Tsubame Electronics - Receipt', [
      [
        'Receipt 0932-7781, 2 Oct 2026',
        '',
        '1 x Wireless earbuds TX-3     JPY 12,800',
        '',
        'Total                         JPY 12,800',
        'Paid by Visa ending 5512, one payment.',
      ],
    ]),
  'receipts/streamwave-invoice.pdf': () =>
    documentPdf('Streamwave Plus - Invoice', [
      [
        'Invoice SW-2026-09-88412, 15 Sep 2026',
        'Monthly plan, 15 Sep - 14 Oct 2026     USD 14.99',
        '',
        'Subscription cancelled by the member on 31 Aug 2026.',
        'Charged to American Express ending 1007.',
      ],
    ]),
  'receipts/cafe-lumiere-receipt.pdf': () =>
    documentPdf('Café Lumière - Addition', [
      [
        'Table 12, 22 Oct 2026, 20:41',
        '',
        '2 x Menu du jour          EUR 58.00',
        '1 x Carafe de vin          EUR 8.40',
        '',
        'Total                     EUR 66.40',
        'Charged to the card: EUR 86.40',
      ],
    ]),
  'receipts/harbour-lane-receipt.jpg': () => receiptPhoto(41, 5),
  'receipts/fenwick-furniture-receipt.jpg': () => receiptPhoto(73, 3),
  'correspondence/northwind-support-reply.png': () => emailScreenshot(11, [22, 92, 74]),
  'correspondence/fenwick-furniture-email.png': () => emailScreenshot(29, [122, 62, 32]),
};

for (const [path, make] of Object.entries(files)) {
  const target = join(evidenceDir, path);
  await mkdir(dirname(target), { recursive: true });
  const bytes = await make();
  await writeFile(target, bytes);
  console.log(`${path}: ${bytes.length} bytes`);
}
