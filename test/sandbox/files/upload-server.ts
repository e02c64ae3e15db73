import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { onTestFinished } from 'vitest';
import { SandboxHttpError } from '../../../src/sandbox/http/errors.js';
import { receiveUpload, type ReceiveUploadOptions } from '../../../src/sandbox/files/receive-upload.js';
import { multipartContentType } from './multipart.js';

/**
 * A real server on a loopback port 0 whose only route is the upload pipeline, answering as the
 * sandbox's files handler will: 200 with what was received, or the refusal's status and body.
 * Closed when the test that started it finishes.
 */
export async function startUploadServer(
  options: ReceiveUploadOptions = {},
): Promise<{ url: string; answers: { status: number; body: unknown }[] }> {
  const sockets = new Set<Socket>();
  /** Every answer the handler gave, in order, including those no client stayed to read. */
  const answers: { status: number; body: unknown }[] = [];
  const server = createServer((incoming, response) => {
    const answer = (status: number, body: unknown) => {
      answers.push({ status, body });
      const text = JSON.stringify(body);
      response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      response.end(text);
    };
    receiveUpload(incoming, options).then(
      (upload) => {
        const { category, contentType, content, sha256, pageCount } = upload;
        answer(200, { category, contentType, size: content.size, sha256, pageCount });
      },
      (error: unknown) => {
        if (error instanceof SandboxHttpError) answer(error.status, error.body);
        else answer(500, { message: error instanceof Error ? error.message : String(error) });
      },
    );
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, answers };
}

export interface UploadAnswer {
  status: number;
  body: unknown;
  /**
   * Settles when the client is done sending: undefined once the whole body went out, or the
   * error that stopped it (the server cutting a client that kept sending).
   */
  sent: Promise<Error | undefined>;
}

/**
 * POSTs a body over a raw HTTP/1.1 connection and resolves with the answer as soon as it is
 * complete. Unlike node:http's client, which stops writing once a response has arrived, this
 * client goes on sending, as a careless or hostile one would: the server has to cope.
 * A streamed body (an iterable, never held whole) needs its `contentLength` declared.
 */
export async function postUpload(
  url: string,
  body: Buffer | { chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>; contentLength: number },
  headers: Record<string, string> = { 'content-type': multipartContentType },
): Promise<UploadAnswer> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  onTestFinished(() => {
    socket.destroy();
  });
  await once(socket, 'connect');

  const contentLength = Buffer.isBuffer(body) ? body.length : body.contentLength;
  const head = Object.entries({ host: `${hostname}:${port}`, ...headers, 'content-length': String(contentLength) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST /v2/issuer/files HTTP/1.1\r\n${head}\r\n`);
  const chunks = Buffer.isBuffer(body) ? [body] : body.chunks;
  const sent = pipeline(Readable.from(chunks, { objectMode: false }), socket, { end: false }).then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  return { ...(await readAnswer(socket)), sent };
}

/** Reads one response with a content-length, as the server's answers always have. */
async function readAnswer(socket: Socket): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = received.subarray(0, headEnd).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? Infinity);
      const body = received.subarray(headEnd + 4);
      if (body.length < length) return;
      socket.off('data', onData);
      resolve({ status, body: JSON.parse(body.subarray(0, length).toString('utf8')) as unknown });
    };
    socket.on('data', onData);
    socket.on('error', () => undefined); // reported through `sent`
    socket.on('close', () => {
      reject(
        new Error(
          `answer: expected a complete HTTP response, got ${received.length} bytes before the connection closed`,
        ),
      );
    });
  });
}
