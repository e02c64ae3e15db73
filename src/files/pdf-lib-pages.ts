import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFObject } from 'pdf-lib';
import { withinBudget } from './pdf-bounded-streams.js';
import { PdfUnreadableError } from './pdf-errors.js';
import { countPageLeaves } from './pdf-page-tree.js';
import { PdfParseBudget } from './pdf-parse-budget.js';

/**
 * A PDF's page count by pdf-lib, for the files the quick reading (pdf-cross-references.ts) leaves
 * to it. Runs in the PDF worker thread (pdf-page-worker.ts), never on the main thread: parsing is
 * synchronous work of up to seconds, and its object and cross-reference streams are decoded
 * within the limits of pdf-complexity-limits.ts (pdf-bounded-streams.ts).
 * pdf-lib parses the file (objects, object streams, cross-reference streams, leading junk);
 * the page tree is walked here rather than by `getPageCount()`, because pdf-lib's own walk
 * recurses without remembering where it has been: a crafted tree whose kids point back at an
 * ancestor, or at one subtree many times over, would overflow the stack or run for hours.
 */
export async function countPagesWithPdfLib(bytes: Uint8Array): Promise<number> {
  const budget = new PdfParseBudget();
  let document: PDFDocument;
  try {
    // An encrypted PDF's page tree is readable without the password (only strings and streams
    // are encrypted) unless it sits in an object stream, which then fails here as unreadable.
    // Nothing is written back, so the metadata update pdf-lib does by default is pointless.
    document = await withinBudget(budget, async () =>
      PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false }),
    );
  } catch (error) {
    // A limit passed is the answer, even when pdf-lib then failed for another reason.
    if (budget.refusal !== undefined) throw budget.refusal;
    throw new PdfUnreadableError(`a file pdf-lib cannot parse (${messageOf(error)})`, { cause: error });
  }
  budget.checkObjectCount(document.context.enumerateIndirectObjects().length);
  return countPages(document);
}

function countPages(document: PDFDocument): number {
  const pagesKey = PDFName.of('Pages');
  const kidsKey = PDFName.of('Kids');
  const typeKey = PDFName.of('Type');
  const pageType = PDFName.of('Page');
  const { context } = document;
  const catalog = context.lookup(context.trailerInfo.Root);
  if (!(catalog instanceof PDFDict))
    throw new PdfUnreadableError('no document catalog (trailer /Root missing or broken)');
  const root = catalog.lookup(pagesKey);
  if (!(root instanceof PDFDict)) throw new PdfUnreadableError('no page tree (catalog /Pages missing or broken)');

  return countPageLeaves(root, {
    kidsOf(node) {
      const kids = node.lookup(kidsKey);
      if (node.lookup(typeKey) === pageType || kids === undefined) return undefined;
      if (!(kids instanceof PDFArray))
        throw new PdfUnreadableError(`a page tree node whose /Kids is ${describe(kids)}, not an array`);
      const dictionaries: PDFDict[] = [];
      for (let index = 0; index < kids.size(); index++) {
        const kid = kids.lookup(index);
        if (!(kid instanceof PDFDict))
          throw new PdfUnreadableError(`a page tree kid that is ${describe(kid)}, not a dictionary`);
        dictionaries.push(kid);
      }
      return dictionaries;
    },
    refusal: (reason) => new PdfUnreadableError(reason),
  });
}

function describe(value: PDFObject | undefined): string {
  return value === undefined ? 'missing' : `a ${value.constructor.name}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
