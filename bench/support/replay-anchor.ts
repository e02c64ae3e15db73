import { createServer, request, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { listenOnLoopback } from './counting-proxy.js';

/**
 * The anchor the refusal cases measure against (docs/rate-limits.md, "What is measured"): the
 * plainest client that gets the same work done. It sends the very requests our command sent (the
 * same bodies, recorded on the wire in a fault-free run), one claim's requests in order, from as
 * many workers as the command's --concurrency; a request answered 503 or 429 waits for its own
 * Retry-After (1 s without one) and is sent again, and no one else waits. No limit, no budget,
 * no breaker: what a client that knew refusals are sporadic would do.
 */

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** The requests of one claim (or one unit of work), in the order they were sent. */
export type RequestSequence = readonly RecordedRequest[];

export interface Recorder {
  readonly url: string;
  /** What went through, grouped by the claim each request names, in the order of first sight. */
  sequences(): RequestSequence[];
  /** Forgets what was recorded so far (the set-up's requests, before the run to replay). */
  reset(): void;
  close(): Promise<void>;
}

/** Headers a replay sends again: the body's type and the key; the rest the client sets itself. */
const keptHeaders = ['content-type', 'authorization'];

/** The claim a request is about: its path's claim id, else its body's `claim_id`; else a group of its own. */
function groupOf(path: string, body: Buffer, index: number): string {
  const fromPath = /^\/v2\/issuer\/claims\/([^/?]+)/.exec(path)?.[1];
  if (fromPath !== undefined) return fromPath;
  const fromBody = /"claim_id"\s*:\s*"([^"]+)"/.exec(body.toString('utf8'))?.[1];
  return fromBody ?? `#${index}`;
}

/** A pass-through proxy in front of `targetUrl` that keeps every request it forwards that was answered 2xx. */
export async function startRecorder(targetUrl: string): Promise<Recorder> {
  const target = new URL(targetUrl);
  const agent = new HttpAgent({ keepAlive: true });
  const groups = new Map<string, RecordedRequest[]>();
  let seen = 0;
  const server = createServer((incoming: IncomingMessage, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
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
          if (status >= 200 && status < 300) {
            const path = incoming.url ?? '/';
            const headers = Object.fromEntries(
              keptHeaders.flatMap((name) =>
                typeof incoming.headers[name] === 'string' ? [[name, incoming.headers[name]]] : [],
              ),
            );
            const key = groupOf(path, body, seen++);
            groups.set(key, [...(groups.get(key) ?? []), { method: incoming.method ?? 'GET', path, headers, body }]);
          }
          outgoing.writeHead(status, response.headers);
          response.pipe(outgoing);
        },
      );
      upstream.on('error', () => outgoing.destroy());
      upstream.end(body);
    });
  });
  return {
    url: await listenOnLoopback(server),
    sequences: () => [...groups.values()],
    reset: () => {
      groups.clear();
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

export interface ReplayResult {
  /** First request sent to last answer read. */
  readonly sendingSeconds: number;
  /** Attempts in all, the refused ones included. */
  readonly requests: number;
  /** Attempts answered 503 or 429. */
  readonly refused: number;
}

/** Sends `sequences` from `concurrency` workers, each refusal waiting its own Retry-After. */
export async function replay(
  origin: string,
  sequences: readonly RequestSequence[],
  concurrency: number,
): Promise<ReplayResult> {
  const pool = new Pool(origin, { connections: concurrency });
  let next = 0;
  let requests = 0;
  let refused = 0;
  const send = async (recorded: RecordedRequest): Promise<void> => {
    for (;;) {
      requests++;
      const { statusCode, headers, body } = await pool.request({
        method: recorded.method,
        path: recorded.path,
        headers: recorded.headers,
        body: recorded.method === 'GET' ? null : recorded.body,
      });
      const text = await body.text();
      if (statusCode >= 200 && statusCode < 300) return;
      if (statusCode !== 503 && statusCode !== 429)
        throw new Error(
          `anchor: expected 2xx, 429 or 503 from ${recorded.method} ${recorded.path}, got ${statusCode}: ${text.slice(0, 300)}`,
        );
      refused++;
      const seconds = Number(headers['retry-after'] ?? 1);
      await new Promise((resolve) => setTimeout(resolve, (Number.isFinite(seconds) ? seconds : 1) * 1000));
    }
  };
  const worker = async (): Promise<void> => {
    for (let index = next++; index < sequences.length; index = next++) {
      for (const recorded of sequences[index] ?? []) await send(recorded);
    }
  };
  try {
    const startedMs = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    return { sendingSeconds: (performance.now() - startedMs) / 1000, requests, refused };
  } finally {
    await pool.close();
  }
}
