import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/**
 * A pass-through HTTP proxy on loopback in front of a sandbox process, counting every answer it
 * hands back by status: what the service answered on the wire, whatever the client logs, retries
 * or sums up (the share of 429s is counted here, not taken from the import's word).
 * Bodies are streamed through untouched. Closed when the test ends.
 */

export interface CountingProxy {
  readonly url: string;
  /** Answers by status, e.g. { 201: 1980, 429: 20 }; a failed forward counts as 502. */
  byStatus(): Readonly<Record<number, number>>;
  /** Every answer. */
  total(): number;
  /** Every request handed on, in order, as `METHOD /path` (no query): what reached the service, route by route. */
  requests(): readonly string[];
}

export async function startCountingProxy(targetUrl: string): Promise<CountingProxy> {
  const target = new URL(targetUrl);
  // Keep-alive upstream too, as the import's own client does: no connection set-up per request.
  const agent = new Agent({ keepAlive: true });
  const counts = new Map<number, number>();
  const seen: string[] = [];
  const count = (status: number) => counts.set(status, (counts.get(status) ?? 0) + 1);

  const server = createServer((incoming, outgoing) => {
    seen.push(`${incoming.method ?? ''} ${(incoming.url ?? '').split('?')[0] ?? ''}`);
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
        const status = response.statusCode ?? 502;
        count(status);
        outgoing.writeHead(status, response.headers);
        response.pipe(outgoing);
      },
    );
    upstream.on('error', (error) => {
      count(502);
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'application/json' });
      outgoing.end(JSON.stringify({ message: `test proxy: ${error.message}` }));
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    agent.destroy();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    byStatus: () => Object.fromEntries(counts),
    total: () => [...counts.values()].reduce((sum, value) => sum + value, 0),
    requests: () => [...seen],
  };
}
