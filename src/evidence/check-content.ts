import { createHash } from 'node:crypto';
import { fileSizeLimitBytes, isUnderFileSizeLimit, maxPdfPages } from '../files/limits.js';
import { countPdfPages, PdfTooComplexError, PdfUnreadableError } from '../files/pdf-pages.js';
import { detectFileType, looksLikeText, type SniffedType } from '../files/sniff.js';
import {
  fileEmpty,
  fileTooLarge,
  pdfNoPages,
  pdfTooComplex,
  pdfTooManyPages,
  pdfUnreadable,
  typeUnsupported,
  type EvidenceFailure,
} from './errors.js';

/**
 * The checks on an evidence file's bytes, pure (no file system): the same rules the service applies
 * to an upload (JPEG, PNG or PDF, under 4.5 MB, a PDF at most 5 pages), so a file that passes here
 * is not refused there, and a file that would be refused costs no request. The sandbox applies them
 * through the same src/files/ modules.
 */

export interface EvidenceFile {
  bytes: Buffer;
  /** Lower-case hex SHA-256 of `bytes`: uploads are deduplicated by it, once per content per job. */
  sha256: string;
  /** From the content, never from the file name. */
  contentType: SniffedType;
  size: number;
}

export type EvidenceFileResult = ({ ok: true } & EvidenceFile) | EvidenceFailure;

/** `cell` names the file in messages. */
export async function checkEvidenceContent(bytes: Buffer, cell: string): Promise<EvidenceFileResult> {
  if (bytes.length === 0) return fileEmpty(cell);
  if (!isUnderFileSizeLimit(bytes.length)) return fileTooLarge(cell, fileSizeLimitBytes, bytes.length, false);
  const contentType = detectFileType(bytes);
  // Text or not is all a message says about the content: the bytes could be card data.
  if (contentType === undefined)
    return typeUnsupported(cell, looksLikeText(bytes.subarray(0, 512)) ? 'text' : 'binary');
  if (contentType === 'application/pdf') {
    const pageFailure = await checkPdfPages(bytes, cell);
    if (pageFailure !== undefined) return pageFailure;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { ok: true, bytes, sha256, contentType, size: bytes.length };
}

async function checkPdfPages(bytes: Buffer, cell: string): Promise<EvidenceFailure | undefined> {
  let pageCount: number;
  try {
    pageCount = await countPdfPages(bytes);
  } catch (error) {
    if (error instanceof PdfUnreadableError) return pdfUnreadable(cell, error.reason);
    if (error instanceof PdfTooComplexError) return pdfTooComplex(cell, error.expected, error.got);
    throw error;
  }
  if (pageCount === 0) return pdfNoPages(cell);
  if (pageCount > maxPdfPages) return pdfTooManyPages(cell, maxPdfPages, pageCount);
  return undefined;
}
