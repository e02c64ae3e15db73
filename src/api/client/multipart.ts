import { randomBytes } from 'node:crypto';
import type { RequestBody } from './transport.js';

export interface FilePart {
  /** The name the service stores; quotes and line breaks are escaped. */
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/**
 * Encodes `multipart/form-data` (RFC 7578) with one boundary, so a retried upload sends identical
 * bytes: an upload body must be replayable on retry. The file's content is one of the pieces as
 * it is, not copied; evidence files are under 4.5 MB, so holding one in memory is bounded.
 */
export function encodeMultipart(
  fields: Record<string, string>,
  files: Record<string, FilePart>,
  boundary = newBoundary(),
): RequestBody {
  const chunks: Uint8Array[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${escapeQuoted(name)}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const [name, file] of Object.entries(files)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${escapeQuoted(name)}"; filename="${escapeQuoted(file.filename)}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes: chunks };
}

function newBoundary(): string {
  return `bulk-disputes-${randomBytes(16).toString('hex')}`;
}

/** As browsers do (WHATWG HTML, "multipart/form-data encoding algorithm"). */
function escapeQuoted(value: string): string {
  return value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}
