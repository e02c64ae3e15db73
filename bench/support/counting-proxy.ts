import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through HTTP proxy in front of the sandbox that counts the requests it forwards by
 * "METHOD route": what reached the service, seen on the wire, whatever the client logs or retries.
 * Bodies are streamed through untouched; the sandbox still authenticates and answers everything.
 */

export interface CountingProxy {
  readonly url: string;
  /** Requests forwarded since the last `reset()`, by "METHOD route", e.g. "POST /v2/issuer/claims/{id}/file". */
  counts(): ReadonlyMap<string, number>;
  reset(): void;
  close(): Promise<void>;
}

/** The path without its query, a resource id replaced by `{id}`: one count per endpoint, not per claim. */
function routeOf(url: string): string {
  const path = url.split('?')[0] ?? '/';
  return path.replace(/^(\/v[12]\/issuer\/(?:claims|cases|files|events))\/[^/]+/, '$1/{id}');
}

export async function startCountingProxy(targetUrl: string): Promise<CountingProxy> {
  const target = new URL(targetUrl);
  // Keep-alive upstream too, as the import's own client does: no connection set-up per request.
  const agent = new Agent({ keepAlive: true });
  let counts = new Map<string, number>();

  const forward = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const key = `${incoming.method ?? 'GET'} ${routeOf(incoming.url ?? '/')}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const upstream = request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    upstream.on('error', (error) => {
      // The client sees a gateway failure, as it would from a real proxy; it retries or reports it.
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'application/json' });
      outgoing.end(JSON.stringify({ message: `bench proxy: ${error.message}` }));
    });
    incoming.pipe(upstream);
  };

  const server = createServer(forward);
  return {
    url: await listenOnLoopback(server),
    counts: () => counts,
    reset: () => {
      counts = new Map();
    },
    close: async () => {
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}

/** Starts `server` on a free loopback port; resolves to its base URL. */
export async function listenOnLoopback(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Requests that create a claim: `POST /v2/issuer/new_claim` (claim with its cases) and `POST /v2/issuer/claims`. */
export function createRequests(counts: ReadonlyMap<string, number>): number {
  return (counts.get('POST /v2/issuer/new_claim') ?? 0) + (counts.get('POST /v2/issuer/claims') ?? 0);
}

export function totalRequests(counts: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const value of counts.values()) total += value;
  return total;
}
