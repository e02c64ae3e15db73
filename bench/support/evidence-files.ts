import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { PDFDocument, PDFName } from 'pdf-lib';
import { fileSizeLimitBytes } from '../../src/files/limits.js';
import { repoRoot } from './paths.js';

/**
 * Large, valid, distinct evidence files for the upload benchmark: the shipped samples (made by
 * scripts/make-sample-evidence.js) padded with random bytes where each format allows data that
 * readers skip: JPEG comment segments, a private PNG chunk, an extra PDF stream object. Random
 * bytes make every file distinct (uploads are deduplicated by sha256) and incompressible.
 */

export interface EvidenceFileSpec {
  /** The name inside the evidence directory (what a CSV cell would hold). */
  readonly name: string;
  readonly path: string;
  readonly sizeBytes: number;
}

const sampleJpeg = join(repoRoot, 'samples/evidence/receipts/harbour-lane-receipt.jpg');
const samplePng = join(repoRoot, 'samples/evidence/correspondence/fenwick-furniture-email.png');
const samplePdf = join(repoRoot, 'samples/evidence/receipts/northwind-invoice-NW-48213.pdf');

/** A JPEG segment's length field counts itself: 65,535 - 2 bytes of payload at most. */
const maxJpegSegmentPayload = 65_533;

/** COM segments (T.81 B.2.4.5) right after SOI: decoders skip them. */
function padJpeg(sample: Buffer, paddingBytes: number): Buffer {
  const segments: Buffer[] = [];
  for (let left = paddingBytes; left > 0; left -= maxJpegSegmentPayload + 4) {
    const payload = randomBytes(Math.max(0, Math.min(maxJpegSegmentPayload, left - 4)));
    const head = Buffer.alloc(4);
    head.writeUInt16BE(0xfffe, 0);
    head.writeUInt16BE(payload.length + 2, 2);
    segments.push(head, payload);
  }
  return Buffer.concat([sample.subarray(0, 2), ...segments, sample.subarray(2)]);
}

/** One ancillary, private, safe-to-copy chunk ("bnCh", PNG spec 5.4) before IEND (the last 12 bytes). */
function padPng(sample: Buffer, paddingBytes: number): Buffer {
  const typeAndData = Buffer.concat([Buffer.from('bnCh', 'latin1'), randomBytes(Math.max(0, paddingBytes - 12))]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(typeAndData.length - 4, 0);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData), 0);
  return Buffer.concat([sample.subarray(0, -12), length, typeAndData, crc, sample.subarray(-12)]);
}

/** The sample invoice plus an unfiltered stream object referenced from the catalog: its page count is unchanged. */
async function padPdf(sample: Buffer, paddingBytes: number): Promise<Buffer> {
  const document = await PDFDocument.load(sample, { updateMetadata: false });
  const payload = document.context.register(document.context.stream(randomBytes(paddingBytes)));
  document.catalog.set(PDFName.of('BenchPadding'), payload);
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

/** 1.0 to ~4.0 MB, spread deterministically, every one under the service's limit. */
function targetSizeBytes(index: number): number {
  return 1_000_000 + ((index * 37) % 100) * 30_000;
}

/**
 * `count` files named `{prefix}-NNN.{jpg,png,pdf}` in `dir`, the three formats in turn, each of
 * `sizeOf(index)` bytes (by default 1 to 4 MB).
 */
export async function writeEvidenceFiles(
  dir: string,
  prefix: string,
  count: number,
  sizeOf: (index: number) => number = targetSizeBytes,
): Promise<EvidenceFileSpec[]> {
  const samples = { jpg: await readFile(sampleJpeg), png: await readFile(samplePng), pdf: await readFile(samplePdf) };
  const specs: EvidenceFileSpec[] = [];
  for (let index = 0; index < count; index++) {
    const target = sizeOf(index);
    const extension = (['jpg', 'png', 'pdf'] as const)[index % 3] ?? 'jpg';
    const padding = target - samples[extension].length;
    const bytes =
      extension === 'jpg'
        ? padJpeg(samples.jpg, padding)
        : extension === 'png'
          ? padPng(samples.png, padding)
          : await padPdf(samples.pdf, padding);
    if (bytes.length >= fileSizeLimitBytes)
      throw new Error(`evidence bench: expected files under ${fileSizeLimitBytes} bytes, got ${bytes.length}`);
    const name = `${prefix}-${String(index).padStart(count > 1000 ? 4 : 3, '0')}.${extension}`;
    const path = join(dir, name);
    await writeFile(path, bytes);
    specs.push({ name, path, sizeBytes: bytes.length });
  }
  return specs;
}
