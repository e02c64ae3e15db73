import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The baseline servers of the sandbox and evidence benchmarks, run as a child process by
 * bare-server.ts: node:http and nothing else, so the ratio shows what the sandbox (or our upload
 * path) costs on top of the HTTP transfer itself.
 *
 *   node bare-server-main.js respond STATUS BODY_FILE [DELAY_MS]
 *                                                       reads each request's body, answers BODY_FILE as JSON
 *                                                       (DELAY_MS after the body, as the sandbox's --latency-ms)
 *   node bare-server-main.js discard                    reads each request's body, answers {"bytes":N}
 *
 * The body is always read to the end (the sandbox must read it too), never parsed.
 */

const [mode, statusText, bodyFile, delayText] = process.argv.slice(2);
const delayMs = Number(delayText ?? 0);

async function drain(request: IncomingMessage): Promise<number> {
  let bytes = 0;
  for await (const chunk of request) bytes += (chunk as Buffer).length;
  return bytes;
}

function answerer(): (bytes: number) => { status: number; body: Buffer } {
  if (mode === 'discard') return (bytes) => ({ status: 200, body: Buffer.from(JSON.stringify({ bytes })) });
  if (mode === 'respond' && statusText !== undefined && bodyFile !== undefined) {
    const canned = { status: Number(statusText), body: readFileSync(bodyFile) };
    return () => canned;
  }
  throw new Error(
    `bare server: expected "respond STATUS BODY_FILE" or "discard", got "${process.argv.slice(2).join(' ')}"`,
  );
}

const answer = answerer();
const server = createServer((request, response) => {
  drain(request).then(
    (bytes) => {
      const reply = () => {
        const { status, body } = answer(bytes);
        response.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length });
        response.end(body);
      };
      if (delayMs > 0) setTimeout(reply, delayMs);
      else reply();
    },
    () => response.destroy(),
  );
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`bare server listening on http://127.0.0.1:${port}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
