import { randomBytes } from 'node:crypto';
import { PDFArray, PDFDocument, PDFName, PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pageCountFromCrossReferences } from '../../src/files/pdf-cross-references.js';
import { countPdfPages } from '../../src/files/pdf-pages.js';
import { appendRevision, classicPdf } from './classic-pdf.js';

/**
 * The page count read through the cross-reference table (quicker than pdf-lib's document model):
 * the same count as pdf-lib on every file it reads, and no answer (so that pdf-lib decides) on
 * every file it cannot read plainly.
 */

const inPieces = (bytes: Uint8Array, pieceBytes: number) =>
  Array.from({ length: Math.ceil(bytes.length / pieceBytes) }, (_, index) =>
    bytes.subarray(index * pieceBytes, (index + 1) * pieceBytes),
  );
const pdfLibCount = async (bytes: Uint8Array) =>
  (await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false })).getPageCount();

async function classicFromPdfLib(pageCount: number, extra?: (document: PDFDocument) => void): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  for (let index = 0; index < pageCount; index++) document.addPage([200, 200]);
  extra?.(document);
  return document.save({ useObjectStreams: false, addDefaultPage: false });
}

const catalog = '<< /Type /Catalog /Pages 2 0 R >>';

/** pdf-lib's reading of the same objects: leading junk spoils every offset, so countPdfPages must ask pdf-lib. */
const pdfLibWalk = async (bodies: readonly string[]) => {
  const behindJunk = classicPdf(bodies, { prefix: 'junk\r\n' });
  expect(pageCountFromCrossReferences([behindJunk])).toBeUndefined();
  return countPdfPages(behindJunk);
};

/** The file with its last cross-reference entry pointing at byte 9 (inside the header's comment line). */
function withLastOffsetWrong(bytes: Buffer): Buffer {
  const text = bytes.toString('latin1');
  const last = [...text.matchAll(/^\d{10} 00000 n(?=\r\n)/gm)].at(-1);
  if (last?.index === undefined) throw new Error('fixture: expected an in-use cross-reference entry, got none');
  return Buffer.from(`${text.slice(0, last.index)}0000000009${text.slice(last.index + 10)}`, 'latin1');
}

/**
 * A catalog, then `depth` page tree nodes each holding the next inside a string (20 kB of padding
 * each) and a page innermost: reading each node from its offset re-reads everything inside it.
 */
function nestedInStrings(depth: number): Buffer {
  const last = depth + 2;
  let nested = `\n${last} 0 obj\n<< /Type /Page >>\nendobj\n`;
  for (let objectNumber = last - 1; objectNumber >= 2; objectNumber--)
    nested = `\n${objectNumber} 0 obj\n<< /Type /Pages /Kids [${objectNumber + 1} 0 R] /Pad (${'x'.repeat(20_000)}${nested}) >>\nendobj\n`;
  const text = `%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj${nested}`;
  const entries = Array.from(
    { length: last },
    (_, index) => `${String(text.indexOf(`\n${index + 1} 0 obj`) + 1).padStart(10, '0')} 00000 n\r\n`,
  );
  return Buffer.from(
    `${text}xref\n0 ${last + 1}\n0000000000 65535 f\r\n${entries.join('')}trailer\n<< /Size ${last + 1} /Root 1 0 R >>\nstartxref\n${text.length}\n%%EOF\n`,
    'latin1',
  );
}

describe('pageCountFromCrossReferences reads', () => {
  it.each([0, 1, 4, 5, 6, 40])(
    'a classic file of %i pages as pdf-lib counts it, whole or in pieces of any size',
    async (pageCount) => {
      const bytes = await classicFromPdfLib(pageCount);
      expect(await pdfLibCount(bytes)).toBe(pageCount);
      expect(pageCountFromCrossReferences([bytes])).toBe(pageCount);
      for (const pieceBytes of [1, 7, 100, 4096])
        expect(pageCountFromCrossReferences(inPieces(bytes, pieceBytes))).toBe(pageCount);
    },
  );

  it("a file whose bulk is a stream it never reads (the benchmark's padded evidence)", async () => {
    const bytes = await classicFromPdfLib(2, (document) => {
      document.catalog.set(
        PDFName.of('Padding'),
        document.context.register(document.context.stream(randomBytes(2_000_000))),
      );
    });
    expect(pageCountFromCrossReferences(inPieces(bytes, 65_536))).toBe(2);
  });

  it('a tree of intermediate nodes, leaves without /Type, comments, escaped names and strings holding delimiters', async () => {
    const bodies = [
      '<< /Type /Catalog /Pages 2 0 R /Title (a (nested) title with >> and \\) inside) /Lang <656e> >>',
      '<< /Ty#70e /Pag#65s % a comment with >> in it\n /Kids [3 0 R 4 0 R] /Count 3 >>',
      '<< /Type /Pages /Parent 2 0 R /Kids [ 5 0 R\n6 0 R ] /Count 2 /Rotate -90 /UserUnit 1.5 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << >> /ProcSet [/PDF /Text] >> >>',
      '<< /Parent 3 0 R /MediaBox [0 0 612.0 792.0] /Annots [] /Hidden true /Dummy null >>',
      '<</Type/Page/Parent 3 0 R>>',
    ];
    const bytes = classicPdf(bodies);
    expect(await pdfLibWalk(bodies)).toBe(3);
    expect(pageCountFromCrossReferences([bytes])).toBe(3);
    expect(pageCountFromCrossReferences(inPieces(bytes, 3))).toBe(3);
  });

  it('the newest revision of an incrementally updated file', async () => {
    const original = classicPdf([
      catalog,
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R >>',
    ]);
    const updated = appendRevision(
      original,
      new Map([
        [4, '<< /Type /Page /Parent 2 0 R >>'],
        [2, '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>'],
      ]),
      1,
    );
    expect(await pdfLibCount(updated)).toBe(2);
    expect(pageCountFromCrossReferences([updated])).toBe(2);
  });
});

describe('pageCountFromCrossReferences leaves to pdf-lib', () => {
  it.each([
    ['pages in object streams behind a cross-reference stream', async () => (await PDFDocument.create()).save()],
    [
      'a file behind leading junk (every offset is off)',
      async () => classicPdf([catalog, '<< /Type /Pages /Kids [] /Count 0 >>'], { prefix: 'junk\r\n' }),
    ],
    [
      'a file without startxref',
      async () =>
        Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1'),
    ],
    [
      'an offset that lands on another object',
      async () => withLastOffsetWrong(classicPdf([catalog, '<< /Type /Pages /Kids [] /Count 0 >>'])),
    ],
    [
      'a /Root that is not a catalog',
      async () => classicPdf(['<< /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>']),
    ],
    [
      'a page tree node that is a stream',
      async () => classicPdf([catalog, '<< /Type /Pages /Kids [] /Count 0 /Length 0 >>\nstream\n\nendstream']),
    ],
    ['a /Kids that is not an array', async () => classicPdf([catalog, '<< /Type /Pages /Kids 7 /Count 0 >>'])],
    ['a kid that is no object', async () => classicPdf([catalog, '<< /Type /Pages /Kids [9 0 R] /Count 1 >>'])],
    [
      'values nested beyond reason',
      async () => classicPdf([catalog, `<< /Type /Pages /Kids [] /Deep ${'['.repeat(100)}${']'.repeat(100)} >>`]),
    ],
    [
      'a page tree that loops back to its root',
      async () =>
        classicFromPdfLib(1, (document) => {
          const rootRef = document.catalog.get(PDFName.of('Pages'));
          if (rootRef instanceof PDFRef) document.catalog.Pages().Kids().push(rootRef);
        }),
    ],
    [
      'a page tree that lists one page twice',
      async () =>
        classicFromPdfLib(1, (document) => {
          const kids: PDFArray = document.catalog.Pages().Kids();
          kids.push(kids.get(0));
        }),
    ],
  ])('%s', async (_name, make) => {
    expect(pageCountFromCrossReferences([await make()])).toBeUndefined();
  });

  it("objects hidden inside each other's strings, read over and over: given up within a few passes over the file", () => {
    // A few such objects are read as the table says (as PDF readers read them); twenty cost too many passes.
    expect(pageCountFromCrossReferences([nestedInStrings(2)])).toBe(1);
    expect(pageCountFromCrossReferences([nestedInStrings(20)])).toBeUndefined();
  });

  it("and countPdfPages then gives pdf-lib's answer or refusal", async () => {
    const behindJunk = classicPdf([catalog, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page >>'], {
      prefix: 'junk\r\n',
    });
    expect(await countPdfPages(inPieces(behindJunk, 5))).toBe(1);
    const looping = await classicFromPdfLib(1, (document) => {
      const rootRef = document.catalog.get(PDFName.of('Pages'));
      if (rootRef instanceof PDFRef) document.catalog.Pages().Kids().push(rootRef);
    });
    await expect(countPdfPages(inPieces(looping, 64))).rejects.toMatchObject({
      reason: 'a page tree that reaches the same node twice',
    });
  });
});
