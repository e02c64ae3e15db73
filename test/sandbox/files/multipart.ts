/**
 * multipart/form-data bodies written by hand (RFC 7578), so tests control every byte the parser
 * sees, including the malformed ones no client library would produce.
 */

export const boundary = 'test-boundary-5c1e0a7f';
export const multipartContentType = `multipart/form-data; boundary=${boundary}`;

export interface Part {
  name: string;
  /** Present for file parts: the part carries `filename="…"`. */
  filename?: string;
  /** The part's declared type, which the server must ignore. */
  contentType?: string;
  content?: string | Uint8Array;
}

/** Delimiter and headers of one part, up to the first byte of its content. */
export function partHead(part: Part): Buffer {
  const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
  const type = part.contentType === undefined ? '' : `Content-Type: ${part.contentType}\r\n`;
  return Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`, 'utf8');
}

/** The line break ending a part's content, then the closing delimiter. */
export const bodyTail = Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1');

export function multipartBody(parts: Part[]): Buffer {
  if (parts.length === 0) return Buffer.from(`--${boundary}--\r\n`, 'latin1');
  const pieces = parts.flatMap((part, index) => [
    ...(index === 0 ? [] : [Buffer.from('\r\n', 'latin1')]),
    partHead(part),
    Buffer.from(part.content ?? ''),
  ]);
  return Buffer.concat([...pieces, bodyTail]);
}
