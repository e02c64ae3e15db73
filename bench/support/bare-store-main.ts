import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, sep } from 'node:path';

/**
 * The least an S3-compatible store does for a reader, as the object-storage benchmark's second
 * store: node:http answering the S3 API's GET and HEAD of `/bucket/key` (path style) from a folder
 * holding `bucket/key`, and a list as an empty one, run as a child process by bare-store.ts. It
 * checks no signature (Swift, the store the tests use, does): it shows what reading from a store
 * costs the import when the store itself keeps up, as a bank's S3 or Ceph does.
 *
 *   node bare-store-main.js FOLDER [DELAY_MS]   each object answered DELAY_MS after its request,
 *                                              as a store across a network answers its first byte
 */

const [folderArgument, delayText] = process.argv.slice(2);
const delayMs = Number(delayText ?? 0);
if (folderArgument === undefined) throw new Error('bare store: expected FOLDER, got none');
const folder = normalize(folderArgument);

const emptyList =
  '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
  '<KeyCount>0</KeyCount><MaxKeys>1</MaxKeys><IsTruncated>false</IsTruncated></ListBucketResult>';

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://store');
  const path = normalize(join(folder, decodeURIComponent(url.pathname)));
  if (url.searchParams.has('list-type') || url.pathname.endsWith('/')) {
    response.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(emptyList) });
    response.end(emptyList);
    return;
  }
  if (!path.startsWith(folder + sep)) {
    response.writeHead(403).end();
    return;
  }
  const answer = async () =>
    stat(path).then(
      (stats) => {
        const headers = {
          'content-type': 'application/octet-stream',
          'content-length': stats.size,
          etag: `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`,
          'last-modified': stats.mtime.toUTCString(),
        };
        response.writeHead(200, headers);
        if (request.method === 'HEAD') response.end();
        else createReadStream(path).pipe(response);
      },
      () => {
        const missing = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code></Error>';
        response.writeHead(404, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(missing) });
        response.end(request.method === 'HEAD' ? undefined : missing);
      },
    );
  if (delayMs > 0) setTimeout(() => void answer(), delayMs);
  else void answer();
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`bare store listening on http://127.0.0.1:${port}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
