import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { onTestFinished } from 'vitest';

/**
 * A real HTTP server on a loopback port 0, answering the n-th request with the n-th step of its
 * script: the client is tested against a real server, not a mock (as stripe-node's getTestServer
 * and undici's retry tests do). It records every request and is closed when the test that started
 * it finishes.
 */

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Step = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface ScriptedServer {
  url: string;
  requests: RecordedRequest[];
  /** Most connections open at the same time. */
  peakConnections: number;
  /** Connections accepted in all. */
  totalConnections: number;
}

export async function startScriptedServer(script: Step[] | ((index: number) => Step)): Promise<ScriptedServer> {
  const stepAt = typeof script === 'function' ? script : (index: number) => script[index] ?? unscripted;
  const sockets = new Set<Socket>();
  const state: ScriptedServer = { url: '', requests: [], peakConnections: 0, totalConnections: 0 };

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks),
      };
      const index = state.requests.push(request) - 1;
      void Promise.resolve(stepAt(index)(request, response)).catch((error: unknown) => {
        response.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    state.totalConnections++;
    state.peakConnections = Math.max(state.peakConnections, sockets.size);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  });
  return state;
}

/** Answers with a status, a JSON body and optional headers. */
export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): (request: RecordedRequest, response: ServerResponse) => void {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
}

/** Reads the whole request, then resets the connection: the client cannot know what happened. */
export const resetAfterReceiving: Step = (_request, response) => {
  response.socket?.resetAndDestroy();
};

/** Waits, then runs another step: for timeouts and concurrency. */
export function delayed(delayMs: number, step: Step): Step {
  return async (request, response) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        void Promise.resolve(step(request, response)).then(resolve);
      }, delayMs);
      response.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
}

const unscripted: Step = json(599, { message: 'unscripted request: the test sent more requests than it scripted' });

/** The JSON body of a recorded request. */
export function bodyOf(request: RecordedRequest | undefined): unknown {
  if (!request) throw new Error('expected a recorded request, got none');
  return JSON.parse(request.body.toString('utf8'));
}
