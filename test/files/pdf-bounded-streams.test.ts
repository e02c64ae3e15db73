import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { countPdfPages, PdfTooComplexError } from '../../src/files/pdf-pages.js';
import {
  crossReferenceCountBomb,
  doublyDeflatedBomb,
  manyObjectStreams,
  objectCountBomb,
  objectStreamBomb,
  pdfOfStreams,
  runLengthBomb,
} from './pdf-bombs.js';

/**
 * The limits on what reading a PDF may cost (src/files/pdf-complexity-limits.ts), through the page
 * count that the import and the sandbox share. Files the quick reading cannot count go to pdf-lib
 * in the worker thread (dist/: `npm test` builds first).
 */

const gigabyte = 1 << 30;
const inflatedLimit =
  /^pdf: expected object and cross-reference streams that decode to at most 8,000,000 bytes in all, got /;

describe('countPdfPages within the limits', () => {
  it('counts a file just like the bombs below, whose streams stay small', async () => {
    expect(await countPdfPages(objectStreamBomb(1 << 20))).toBe(1);
    expect(await countPdfPages(runLengthBomb(20_000))).toBe(1);
    expect(await countPdfPages(manyObjectStreams(3, 1 << 20))).toBe(1);
  });

  it('counts a real-shaped 5-page form of 200 fields in object streams', async () => {
    const document = await PDFDocument.create();
    const font = await document.embedFont(StandardFonts.Helvetica);
    for (let index = 0; index < 5; index++)
      document.addPage().drawText(`page ${index + 1}: the quick brown fox`, { x: 40, y: 700, size: 12, font });
    const form = document.getForm();
    for (let index = 0; index < 200; index++)
      form.createTextField(`field${index}`).addToPage(document.getPage(index % 5), {
        x: 10 + (index % 10) * 50,
        y: 20 * (index % 30),
        width: 40,
        height: 15,
      });
    expect(await countPdfPages(await document.save({ useObjectStreams: true }))).toBe(5);
  });

  it.each([
    ['an object stream of 1 MB inflating to 1 GiB', () => objectStreamBomb(gigabyte), inflatedLimit],
    ['the same deflated twice, 3 KB in all', () => doublyDeflatedBomb(gigabyte), inflatedLimit],
    ['ten object streams of 1 MiB each', () => manyObjectStreams(10, 1 << 20), inflatedLimit],
    ['RunLength, no zlib: 64-fold', () => runLengthBomb(400_000), inflatedLimit],
    [
      'an object stream declaring a billion objects',
      () => objectCountBomb(1e9),
      /^pdf: expected at most 100,000 objects in object streams, got 1,000,000,000 declared \(\/N\)$/,
    ],
    [
      'a cross-reference stream declaring two billion entries in 3 bytes',
      () => crossReferenceCountBomb(2e9),
      /^pdf: expected at most 100,000 cross-reference stream entries, got 2,000,000,000 declared/,
    ],
    [
      'a stream of five filters',
      () =>
        pdfOfStreams([
          {
            entries:
              '/Type /ObjStm /N 0 /First 0 /Filter [/ASCIIHexDecode /ASCIIHexDecode /ASCIIHexDecode /ASCIIHexDecode /ASCIIHexDecode]',
            data: Buffer.from('>'),
          },
        ]),
      /^pdf: expected streams of at most 4 filters, got a stream of 5$/,
    ],
    [
      '110,000 objects in plain sight',
      () =>
        Buffer.from(
          `%PDF-1.7\n${Array.from({ length: 110_000 }, (_, index) => `${index + 1} 0 obj null endobj\n`).join('')}trailer\n<< /Root 1 0 R >>\n`,
          'latin1',
        ),
      /^pdf: expected at most 100,000 objects, got 110,000$/,
    ],
  ])('refuses %s as too complex', async (_name, build, message) => {
    const counting = countPdfPages(build());
    await expect(counting).rejects.toBeInstanceOf(PdfTooComplexError);
    await expect(counting).rejects.toThrow(message);
  });

  it('refuses a parse that outgrows the worker heap, and the next file is counted', async () => {
    // 4.4 MB of empty dictionaries: no compression, but some 300 MB of pdf-lib objects.
    const dictionaries = Buffer.from(
      `%PDF-1.7\n1 0 obj\n[${'<<>>'.repeat(1_100_000)}]\nendobj\ntrailer\n<< /Root 1 0 R >>\n`,
      'latin1',
    );
    await expect(countPdfPages(dictionaries)).rejects.toThrow(
      /^pdf: expected a PDF read within 96 MB of memory, got one that needs more$/,
    );
    expect(await countPdfPages(objectStreamBomb(1 << 20))).toBe(1);
  });
});
