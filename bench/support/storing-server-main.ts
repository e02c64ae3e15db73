import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * The durable anchor of the evidence benchmark, run as a child process by storing-server.ts:
 * node:http and nothing else, except that each body is hashed (sha256) as it arrives and written to
 * a file of its own, named by its hash, before the answer. The least a server that keeps what it
 * acknowledges has to do with an upload's bytes; what the sandbox does beyond it (multipart
 * parsing, the checks, its database) is what the ratio to it shows.
 *
 *   node storing-server-main.js DIRECTORY
 */

const directory = process.argv[2] ?? '';
if (directory === '') throw new Error('storing server: expected "DIRECTORY", got no argument');

async function store(request: IncomingMessage): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of request) {
    hash.update(chunk as Buffer);
    chunks.push(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  const sha256 = hash.digest('hex');
  // As the sandbox's blob store writes a content: one writev of the pieces, no copy into one buffer.
  const handle = await open(join(directory, sha256), 'w', 0o600);
  try {
    await handle.writev(chunks);
  } finally {
    await handle.close();
  }
  return { sha256, bytes };
}

const server = createServer((request, response) => {
  store(request).then(
    (stored) => {
      const body = Buffer.from(JSON.stringify(stored));
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      response.end(body);
    },
    () => response.destroy(),
  );
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`storing server listening on http://127.0.0.1:${port}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
