import { BytePieces } from './byte-pieces.js';
import { pageCountFromCrossReferences } from './pdf-cross-references.js';
import { countPagesInWorker } from './pdf-page-pool.js';

export { PdfTooComplexError, PdfUnreadableError } from './pdf-errors.js';

/**
 * Counting the pages of a PDF for the service's "at most 5 pages" limit (sandbox
 * uploads and the import's evidence checks alike).
 * A classic, well-formed file is counted from its cross-reference table without a document model
 * (pdf-cross-references.ts: a few kilobytes read, nothing copied), on this thread; any other goes
 * to pdf-lib in a worker thread (pdf-page-pool.ts, pdf-lib-pages.ts), within the limits of
 * pdf-complexity-limits.ts. Fails with PdfUnreadableError or PdfTooComplexError.
 */

/** `content` in one buffer or in the pieces it arrived in (joined only if pdf-lib is needed). */
export async function countPdfPages(content: Uint8Array | readonly Uint8Array[]): Promise<number> {
  const pieces = content instanceof Uint8Array ? [content] : content;
  const quickCount = pageCountFromCrossReferences(pieces);
  if (quickCount !== undefined) return quickCount;
  return countPagesInWorker(new BytePieces(pieces).whole());
}
