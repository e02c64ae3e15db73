/**
 * The service's upload limits (JPEG, PNG or PDF, under 4.5 MB, a PDF at most 5 pages), in one place
 * so the sandbox that enforces them and the import that checks evidence before sending it can never
 * disagree: a file the import accepts must not be refused by the sandbox.
 */

/**
 * "Uploaded file size: under 4.5 MB", read as decimal megabytes (the service's public reference
 * says 5 MB; the stricter limit wins, so no file we accept is refused). "Under" is strict: a file
 * of this many bytes or more is refused, as the sandbox's multipart parser does when it reaches the
 * limit.
 */
export const fileSizeLimitBytes = 4_500_000;

/** The one size rule, for code that has the size in hand (the sandbox counts while streaming). */
export function isUnderFileSizeLimit(sizeBytes: number): boolean {
  return sizeBytes < fileSizeLimitBytes;
}

/** "PDF length: at most 5 pages". */
export const maxPdfPages = 5;
