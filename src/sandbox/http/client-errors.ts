import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * What the sandbox answers a request Node's parser refused or cut, before or during its body: the
 * service's `{message}` shape with `Connection: close`, then the connection is closed. Node would
 * answer the same statuses with no body; a caller reads the reason this way. A request whose
 * answer has already begun only loses its connection, as under Node's own handling.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, requestTimeoutMs: number): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && inFlight?.headersSent !== true) {
    const [status, reason, message] = answerFor(error, requestTimeoutMs);
    const body = JSON.stringify({ message });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `connection: close\r\n\r\n${body}`,
    );
  }
  // Once what is written has gone (or at once, when nothing was): nothing more is read.
  if (socket.writableFinished || !socket.writable) socket.destroy();
  else socket.once('finish', () => socket.destroy());
}

function answerFor(error: Error & { code?: string }, requestTimeoutMs: number): [number, string, string] {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [
        408,
        'Request Timeout',
        `request timed out: expected the whole request (headers and body) within ${requestTimeoutMs / 1000} s, got only part of it in that time`,
      ];
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'Request Header Fields Too Large', 'request headers too large: expected at most 16 KiB in all'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Payload Too Large', 'chunk extensions too large: expected short ones, got more than Node reads'];
    default:
      return [400, 'Bad Request', `malformed HTTP request: expected HTTP/1.1, got ${error.code ?? error.message}`];
  }
}
