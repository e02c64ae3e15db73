import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { fileSizeLimitBytes } from '../../files/limits.js';
import { checkUpload, type CollectedParts, type ReceivedUpload } from './check-upload.js';
import { ContentCollector } from './file-content.js';
import {
  bodyTooLarge,
  contentTypeInvalid,
  fileTooLarge,
  fileTooMany,
  multipartMalformed,
  parameterUnknown,
  partsTooMany,
  refuseUpload,
} from './upload-errors.js';

export type { ReceivedUpload, UploadCategory } from './check-upload.js';

/**
 * The body of POST /v2/issuer/files, read as a stream: multipart/form-data with a `file` part
 * and a `category` part (docs/sandbox.md, "Files"). Every limit is enforced while the bytes
 * arrive, so a body of any size costs at most `maxFileBytes` of memory, and the answer does not
 * wait for the client to finish sending.
 */

export interface ReceiveUploadOptions {
  /** A file of this many bytes or more is refused. Default: Limits' "under 4.5 MB", decimal. */
  maxFileBytes?: number;
  /**
   * After a refusal, how much more of the body is read and dropped before the connection is
   * cut. Reading on lets a client that is a little over a limit finish sending and read the
   * 400 on a connection that stays usable; the cap stops a client that never stops.
   */
  maxDiscardBytes?: number;
}

/** src/files/limits.ts holds the limit, shared with the import's evidence checks. */
export const defaultMaxFileBytes = fileSizeLimitBytes;
/**
 * Go's net/http makes the same trade (maxPostHandlerReadBytes, 256 KiB): drain a little for
 * keep-alive, close beyond that. Draining a flood whole would also cost memory, not for what is
 * kept but for the read buffers the garbage collector has not yet reclaimed.
 */
export const defaultMaxDiscardBytes = 1024 * 1024;

/** `category` is a short token; the room left is for a stray field we can name in an error. */
const maxFieldBytes = 1024;
/** The file, and room for a category mistakenly sent as a file, so it can be named as such. */
const maxFileParts = 2;
const maxFields = 4;
const maxParts = 6;
/** Boundaries, part headers and the small fields: what a body may hold beyond its file. */
const maxOverheadBytes = 64 * 1024;

export async function receiveUpload(
  request: IncomingMessage,
  options: ReceiveUploadOptions = {},
): Promise<ReceivedUpload> {
  const maxFileBytes = options.maxFileBytes ?? defaultMaxFileBytes;
  const maxDiscardBytes = options.maxDiscardBytes ?? defaultMaxDiscardBytes;
  const contentType = request.headers['content-type'];
  // busboy also reads urlencoded forms, which cannot carry a file: only multipart goes on.
  if (!isMultipartFormData(contentType)) {
    discardRest(request, maxDiscardBytes);
    throw refuseUpload([contentTypeInvalid(contentType)]);
  }
  const parts = await collectParts(request, maxFileBytes, maxDiscardBytes);
  return checkUpload(parts);
}

export function isMultipartFormData(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  return mediaType === 'multipart/form-data';
}

/** Settles exactly once: with the parts, or with a refusal as soon as one is certain. */
async function collectParts(
  request: IncomingMessage,
  maxFileBytes: number,
  maxDiscardBytes: number,
): Promise<CollectedParts> {
  return new Promise<CollectedParts>((resolve, reject) => {
    const parts: CollectedParts = { categories: [], fileSentAsPlainField: false, issues: [] };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        // busboy's fileSize counts bytes kept; reaching it exactly is already "4.5 MB or more".
        limits: {
          fileSize: maxFileBytes,
          files: maxFileParts,
          fields: maxFields,
          fieldSize: maxFieldBytes,
          parts: maxParts,
        },
      });
    } catch {
      // busboy checks only the header here: a missing boundary or an unparsable value.
      discardRest(request, maxDiscardBytes);
      reject(refuseUpload([contentTypeInvalid(request.headers['content-type'])]));
      return;
    }

    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      request.unpipe(parser);
      discardRest(request, maxDiscardBytes);
      // Not now: busboy emits 'limit' mid-parse and still touches its state right after.
      // Destroying an unfinished parser makes it emit an error; `settled` makes that a no-op.
      setImmediate(() => parser.destroy());
      outcome();
    };
    const refuse: Refuse = (...issues) => {
      settle(() => {
        reject(refuseUpload(issues));
      });
    };

    parser.on('file', filePartReader(parts, refuse, maxFileBytes));
    parser.on('field', (name, value, info) => {
      if (name === 'category') parts.categories.push({ value, truncated: info.valueTruncated });
      else if (name === 'file') parts.fileSentAsPlainField = true;
      else parts.issues.push(parameterUnknown(name));
    });
    // Past any count limit the answer is certain, and the rest could be a flood of parts.
    parser.on('filesLimit', () => {
      refuse(partsTooMany(`more than ${maxFileParts} parts with a filename`));
    });
    parser.on('fieldsLimit', () => {
      refuse(partsTooMany(`more than ${maxFields} plain fields`));
    });
    parser.on('partsLimit', () => {
      refuse(partsTooMany(`${maxParts} parts or more`));
    });
    parser.on('error', (error: unknown) => {
      refuse(multipartMalformed(reasonOf(error)));
    });
    parser.on('finish', () => {
      settle(() => {
        resolve(parts);
      });
    });
    watchBody(request, refuse, maxFileBytes);
    request.pipe(parser);
  });
}

type Refuse = (...issues: Parameters<typeof refuseUpload>[0]) => void;

/**
 * The handler of busboy's file parts: one `file` part, kept and hashed as it arrives, refused at
 * once past the size limit; a `category` sent as a file is noted, any other part named.
 */
function filePartReader(parts: CollectedParts, refuse: Refuse, maxFileBytes: number): busboy.BusboyEvents['file'] {
  let fileParts = 0;
  return (name, stream, info) => {
    stream.on('error', () => undefined); // the parser's own error or destruction reports it
    if (name === 'file' && ++fileParts > 1) {
      refuse(fileTooMany());
      return;
    }
    if (name !== 'file') {
      if (name === 'category') parts.categories.push({ value: '', truncated: false, sentAsFile: true });
      else parts.issues.push(parameterUnknown(name));
      stream.resume();
      return;
    }
    // Hashed as it arrives: one pass, and nothing left to hash once the body has ended.
    const content = new ContentCollector();
    stream.on('data', (piece: Buffer) => {
      content.add(piece);
    });
    // Refuse at once: waiting for the end of the body would let the client set the pace.
    stream.on('limit', () => {
      refuse(fileTooLarge(maxFileBytes));
    });
    // busboy leaves the filename out when the part is a file only by its octet-stream type.
    const filename: string | undefined = info.filename;
    stream.on('end', () => {
      parts.file = { filename: filename ?? '', content: content.finish() };
    });
  };
}

/** Watches the request itself: a client gone mid-body, or a body too large around its parts. */
function watchBody(request: IncomingMessage, refuse: Refuse, maxFileBytes: number): void {
  // A client that goes away mid-body: nobody will read the answer, but the promise must end.
  const cutOff = () => {
    if (!request.complete) refuse(multipartMalformed('a connection closed before the body ended'));
  };
  request.on('error', cutOff);
  request.on('close', cutOff);
  // Junk around the parts (preamble, epilogue) is not covered by the file limit.
  let bodyBytes = 0;
  request.on('data', (chunk: Buffer) => {
    bodyBytes += chunk.length;
    if (bodyBytes > maxFileBytes + maxOverheadBytes) refuse(bodyTooLarge(maxFileBytes + maxOverheadBytes));
  });
}

/**
 * Reads and drops whatever the client still sends after we stopped parsing, so it is not stuck
 * writing into a full socket and can read our answer; past `maxDiscardBytes` the connection is
 * destroyed instead. Memory stays flat: nothing read here is kept.
 */
function discardRest(request: IncomingMessage, maxDiscardBytes: number): void {
  let discardedBytes = 0;
  request.on('data', (chunk: Buffer) => {
    discardedBytes += chunk.length;
    if (discardedBytes > maxDiscardBytes) request.destroy();
  });
  request.resume();
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.charAt(0).toLowerCase() + message.slice(1);
}
