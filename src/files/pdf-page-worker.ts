import { PdfTooComplexError, PdfUnreadableError } from './pdf-errors.js';
import { countPagesWithPdfLib } from './pdf-lib-pages.js';

/**
 * The PDF worker thread (started by pdf-page-pool.ts): counts the pages of one file at a time
 * with pdf-lib. Errors do not keep their class across threads, so the answer says which it was.
 */

export type PageCountAnswer =
  | { kind: 'pages'; count: number }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'too-complex'; expected: string; got: string };

// pdf-lib warns on the console about every object it cannot parse; a hostile file can hold
// thousands. What the user needs is the refusal's message, which says which limit was passed.
console.warn = () => undefined;

export default async function countPages(bytes: Uint8Array): Promise<PageCountAnswer> {
  try {
    return { kind: 'pages', count: await countPagesWithPdfLib(bytes) };
  } catch (error) {
    if (error instanceof PdfUnreadableError) return { kind: 'unreadable', reason: error.reason };
    if (error instanceof PdfTooComplexError) return { kind: 'too-complex', expected: error.expected, got: error.got };
    throw error;
  }
}
