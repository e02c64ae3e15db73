/**
 * Why a PDF's pages could not be counted. Both kinds are the file's fault (a refusal, never a
 * reason to retry); `reason`, `expected` and `got` complete the callers' "expected …, got …".
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

/**
 * Reading the file would cost more than any real document of at most 5 pages needs (the limits in
 * pdf-complexity-limits.ts): a decompression bomb, or a structure built to exhaust the parser.
 */
export class PdfTooComplexError extends Error {
  constructor(
    readonly expected: string,
    readonly got: string,
    options?: { cause?: unknown },
  ) {
    super(`pdf: expected ${expected}, got ${got}`, options);
    this.name = 'PdfTooComplexError';
  }
}
