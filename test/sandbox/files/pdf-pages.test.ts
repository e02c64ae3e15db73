import { PDFArray, PDFDocument, PDFName, PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { countPdfPages, PdfUnreadableError } from '../../../src/files/pdf-pages.js';
import { pdfBytes } from './fixtures.js';

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** A PDF whose page tree root gets extra kids after the fact, to build trees that are not trees. */
async function pdfWithExtraKids(addKids: (rootRef: PDFRef, kids: PDFArray) => void): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.addPage();
  const rootRef = document.catalog.get(PDFName.of('Pages'));
  if (!(rootRef instanceof PDFRef))
    throw new Error('fixture: expected the page tree root as a reference, got something else');
  addKids(rootRef, document.catalog.Pages().Kids());
  return document.save();
}

describe('countPdfPages', () => {
  it.each([1, 3, 5, 6, 40])(
    'counts %i pages kept in object streams behind a cross-reference stream',
    async (pageCount) => {
      const bytes = await pdfBytes(pageCount);
      // No page dictionary in plain sight: a text scan for "/Type /Page" would find none.
      expect(latin1(bytes)).toContain('/Type /ObjStm');
      expect(latin1(bytes)).toContain('/Type /XRef');
      expect(latin1(bytes)).not.toMatch(/\/Type\s*\/Page\b/);
      expect(await countPdfPages(bytes)).toBe(pageCount);
    },
  );

  it('counts pages of a classic PDF with an xref table', async () => {
    const document = await PDFDocument.create();
    for (let index = 0; index < 4; index++) document.addPage();
    const bytes = await document.save({ useObjectStreams: false });
    expect(latin1(bytes)).toMatch(/\nxref\n/);
    expect(await countPdfPages(bytes)).toBe(4);
  });

  it('counts pages of a PDF behind leading junk, as PDF readers allow', async () => {
    const bytes = Buffer.concat([Buffer.from('junk from a mail gateway\r\n'.repeat(20), 'latin1'), await pdfBytes(2)]);
    expect(await countPdfPages(bytes)).toBe(2);
  });

  it("counts 0 for a PDF without pages; refusing it is the caller's decision", async () => {
    const bytes = await (await PDFDocument.create()).save({ addDefaultPage: false });
    expect(await countPdfPages(bytes)).toBe(0);
  });

  it.each([
    ['only a header', '%PDF-'],
    ['a header and garbage', '%PDF-1.7\nthis is not a PDF at all\n'],
    [
      'a catalog without a page tree',
      '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
    ],
  ])('refuses %s as unreadable', async (_name, text) => {
    const counting = countPdfPages(Buffer.from(text, 'latin1'));
    await expect(counting).rejects.toBeInstanceOf(PdfUnreadableError);
    await expect(counting).rejects.toThrow(/^pdf: expected a readable PDF document, got /);
  });

  it('refuses a page tree that loops back to its root, instead of recursing forever', async () => {
    const bytes = await pdfWithExtraKids((rootRef, kids) => {
      kids.push(rootRef);
    });
    await expect(countPdfPages(bytes)).rejects.toMatchObject({
      reason: 'a page tree that reaches the same node twice',
    });
  });

  it('refuses a page tree that lists one subtree many times, instead of walking it each time', async () => {
    const bytes = await pdfWithExtraKids((_rootRef, kids) => {
      const firstPage = kids.get(0);
      for (let index = 0; index < 1000; index++) kids.push(firstPage);
    });
    // pdf-lib's own walk visits the shared page every time; nested, that grows exponentially.
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1001);
    await expect(countPdfPages(bytes)).rejects.toMatchObject({
      reason: 'a page tree that reaches the same node twice',
    });
  });
});
