import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * What the sandbox answers a request Node's parser refused or cut, before or during its body: the
 * service's `{message}` shape with `Connection: close`, then the connection is closed. Node would
 * answer the same statuses with no body; a caller reads the reason this way. A request whose
 * answer has already begun only loses its connection, as under Node's own handling.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, bounds: RequestBounds): void {
  // Node's own test (socketOnError): the answer in flight, if the request's headers were read.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
  if (socket.writable && inFlight?.headersSent !== true) {
    const [status, reason, message] = answerFor(error, bounds, inFlight !== undefined);
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

/** The request bounds the server was given (server.ts), to name the one passed. */
export interface RequestBounds {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
}

function answerFor(
  error: Error & { code?: string },
  bounds: RequestBounds,
  headersRead: boolean,
): [number, string, string] {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [
        408,
        'Request Timeout',
        headersRead
          ? `request timed out: expected the whole request within ${seconds(bounds.requestTimeoutMs)}, got only part of its body in that time`
          : `request timed out: expected the request's headers within ${seconds(bounds.headersTimeoutMs)}, got only part of them in that time`,
      ];
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'Request Header Fields Too Large', 'request headers too large: expected at most 16 KiB in all'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Payload Too Large', 'chunk extensions too large: expected short ones, got more than Node reads'];
    default:
      return [400, 'Bad Request', `malformed HTTP request: expected HTTP/1.1, got ${error.code ?? error.message}`];
  }
}

const seconds = (ms: number) => `${String(ms / 1000)} s`;
