/**
 * What a file is, decided by its first bytes alone. The file name (and, for an upload, the part's
 * declared content type) are claims; the service accepts "JPEG, PNG or PDF", which only the content
 * can prove. Shared by the sandbox (uploads it receives) and the import (evidence it checks before
 * sending), so both judge a file the same way.
 */

export type SniffedType = 'image/jpeg' | 'image/png' | 'application/pdf';

const jpegSignature = [0xff, 0xd8, 0xff];
const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const pdfHeader = Buffer.from('%PDF-', 'latin1');

/**
 * How far into the file the PDF header may sit. PDF readers skip junk before `%PDF-` (PDF
 * Reference 1.7, Appendix H, implementation note 13: "within the first 1024 bytes"), and so does
 * pdf-lib's parser, so such a file is still a PDF we can count pages of.
 */
export const pdfHeaderWindowBytes = 1024;

export function detectFileType(bytes: Uint8Array): SniffedType | undefined {
  if (startsWith(bytes, jpegSignature)) return 'image/jpeg';
  if (startsWith(bytes, pngSignature)) return 'image/png';
  const window = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, pdfHeaderWindowBytes));
  if (window.includes(pdfHeader)) return 'application/pdf';
  return undefined;
}

/**
 * A short description of content that is none of the accepted types, for the "got …" half of
 * an error message: text is named as such, anything else by its first bytes in hex so the
 * client can recognise the format it actually sent.
 */
export function describeContent(bytes: Uint8Array): string {
  const head = bytes.subarray(0, 512);
  if (looksLikeText(head)) return 'text/plain-looking bytes';
  const hex = Array.from(head.subarray(0, 8), (byte) => byte.toString(16).padStart(2, '0')).join(' ');
  return `binary bytes starting ${hex}`;
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.byteLength >= signature.length && signature.every((byte, index) => bytes[index] === byte);
}

/** The control characters no text holds: all but tab, LF, FF and CR. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
export const binaryControlCharacters = /[\x00-\x08\x0b\x0e-\x1f\x7f]/g;

/** Text here means valid UTF-8 without control characters other than tab, LF, FF and CR. */
export function looksLikeText(head: Uint8Array): boolean {
  const decoded = new TextDecoder('utf-8').decode(head);
  // A multi-byte character cut at the window's end is not a reason to call the file binary.
  const body = decoded.endsWith('\uFFFD') ? decoded.slice(0, -1) : decoded;
  return !body.includes('\uFFFD') && body.search(binaryControlCharacters) === -1;
}
