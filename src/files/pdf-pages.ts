import type { PDFDict as PdfDict, PDFDocument, PDFObject } from 'pdf-lib';
import { BytePieces } from './byte-pieces.js';
import { pageCountFromCrossReferences } from './pdf-cross-references.js';

/**
 * Counting the pages of a PDF for the service's "at most 5 pages" limit (sandbox
 * uploads and the import's evidence checks alike).
 * A classic, well-formed file is counted from its cross-reference table without a document model
 * (pdf-cross-references.ts: a few kilobytes read, nothing copied); any other goes to pdf-lib.
 * pdf-lib parses the file (objects, object streams, cross-reference streams, leading junk);
 * the page tree is walked here rather than by `getPageCount()`, because pdf-lib's own walk
 * recurses without remembering where it has been: a crafted tree whose kids point back at an
 * ancestor, or at one subtree many times over, would overflow the stack or run for hours.
 */

/** The file starts like a PDF but its structure cannot be read. `reason` completes "got …". */
export class PdfUnreadableError extends Error {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`pdf: expected a readable PDF document, got ${reason}`, options);
    this.name = 'PdfUnreadableError';
  }
}

type PdfLib = typeof import('pdf-lib');

/**
 * pdf-lib is loaded on the first PDF, not at start-up: it adds some 20 MB to every process, and
 * most imports (a dry run of a million rows without evidence, say) never open a PDF.
 */
let pdfLib: Promise<PdfLib> | undefined;
const loadPdfLib = async (): Promise<PdfLib> => (pdfLib ??= import('pdf-lib'));

/** `content` in one buffer or in the pieces it arrived in (joined only if pdf-lib is needed). */
export async function countPdfPages(content: Uint8Array | readonly Uint8Array[]): Promise<number> {
  const pieces = content instanceof Uint8Array ? [content] : content;
  const quickCount = pageCountFromCrossReferences(pieces);
  if (quickCount !== undefined) return quickCount;
  const bytes = new BytePieces(pieces).whole();
  const lib = await loadPdfLib();
  const { PDFDocument } = lib;
  let document: PDFDocument;
  try {
    // An encrypted PDF's page tree is readable without the password (only strings and streams
    // are encrypted) unless it sits in an object stream, which then fails here as unreadable.
    // Nothing is written back, so the metadata update pdf-lib does by default is pointless.
    document = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  } catch (error) {
    throw new PdfUnreadableError(`a file pdf-lib cannot parse (${messageOf(error)})`, { cause: error });
  }
  return countPageLeaves(lib, document);
}

function countPageLeaves({ PDFArray, PDFDict, PDFName }: PdfLib, document: PDFDocument): number {
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

  const seen = new Set<PdfDict>();
  const pending: PdfDict[] = [root];
  let pageCount = 0;
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    // ISO 32000-1 §7.7.3: the page tree is a tree. A node reached twice means a cycle or a
    // shared subtree; refusing it keeps the walk linear in the size of the file.
    if (seen.has(node)) throw new PdfUnreadableError('a page tree that reaches the same node twice');
    seen.add(node);
    const kids = node.lookup(kidsKey);
    // Sloppy writers omit /Type; a node is a leaf when it says so or has no /Kids to descend.
    if (node.lookup(typeKey) === pageType || kids === undefined) {
      pageCount++;
      continue;
    }
    if (!(kids instanceof PDFArray))
      throw new PdfUnreadableError(`a page tree node whose /Kids is ${describe(kids)}, not an array`);
    for (let index = 0; index < kids.size(); index++) {
      const kid = kids.lookup(index);
      if (!(kid instanceof PDFDict))
        throw new PdfUnreadableError(`a page tree kid that is ${describe(kid)}, not a dictionary`);
      pending.push(kid);
    }
  }
  return pageCount;
}

function describe(value: PDFObject | undefined): string {
  return value === undefined ? 'missing' : `a ${value.constructor.name}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
