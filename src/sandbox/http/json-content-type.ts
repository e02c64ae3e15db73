import type { IncomingMessage } from 'node:http';
import { simpleError, type SandboxHttpError } from './errors.js';

/**
 * A write to a JSON route must say `Content-Type: application/json` (a `charset` parameter, if
 * any, `utf-8`: JSON is UTF-8). A request without a body may leave the header out, as our client
 * does for withdraw, and as curl does for a POST without data. The point is more than tidiness:
 * a web page can send `text/plain`, a form or no type at all across sites without asking the
 * browser's leave first, but not `application/json` (docs/sandbox.md, "What a web page cannot do
 * to a running sandbox"). 415 `{message}`; undefined when it may go on.
 */
export function refuseNonJsonBody(request: IncomingMessage): SandboxHttpError | undefined {
  const contentType = request.headers['content-type'];
  if (contentType === undefined) {
    if (!hasBody(request)) return undefined;
    const length = request.headers['content-length'];
    return refused(`none, with ${length === undefined ? 'a chunked body' : `a body of ${length} bytes`}`);
  }
  return isJson(contentType) ? undefined : refused(JSON.stringify(contentType));
}

function isJson(contentType: string): boolean {
  // What our client sends: no parsing.
  if (contentType === 'application/json') return true;
  const [mediaType, ...parameters] = contentType.split(';');
  if (mediaType?.trim().toLowerCase() !== 'application/json') return false;
  return parameters.every((parameter) => {
    const [name, value] = parameter.split('=', 2).map((part) => part.trim().toLowerCase());
    return name !== 'charset' || value === 'utf-8' || value === '"utf-8"';
  });
}

/** What Node reads as a body: a `Content-Length` above 0, or chunks. */
function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0');
}

function refused(got: string): SandboxHttpError {
  return simpleError(415, `expected Content-Type application/json, got ${got}`);
}
