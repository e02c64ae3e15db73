import { expect, it } from 'vitest';
import { defaultMaxDiscardBytes } from '../../../src/sandbox/files/receive-upload.js';
import { bodyTail, partHead } from './multipart.js';
import { postUpload, startUploadServer } from './upload-server.js';

/**
 * The size limit holds while streaming: a 50 MB upload, sent in 64 KiB chunks and never whole
 * in memory on the client side either, is refused without the server keeping more than the
 * 4.5 MB limit. Client and server share this process, so its memory bounds both.
 */

const fileBytes = 50_000_000;
const chunk = Buffer.alloc(64 * 1024, 0x41);
const mebibyte = 1024 * 1024;
const head = [
  partHead({ name: 'category' }),
  Buffer.from('other\r\n'),
  partHead({ name: 'file', filename: 'huge.png', contentType: 'image/png' }),
];
const declaredBytes = head.reduce((total, piece) => total + piece.length, 0) + fileBytes + bodyTail.length;

/** The body, piece by piece, telling `onPiece` each time the client's socket takes one. */
function* fiftyMegabyteUpload(onPiece: (bytes: number) => void): Generator<Buffer> {
  const take = (piece: Buffer) => {
    onPiece(piece.length);
    return piece;
  };
  for (const piece of head) yield take(piece);
  // The same chunk again and again: the client allocates nothing per chunk.
  for (let sent = 0; sent < fileBytes; sent += chunk.length)
    yield take(chunk.subarray(0, Math.min(chunk.length, fileBytes - sent)));
  yield take(bodyTail);
}

interface Sample {
  rss: number;
  /** Includes `arrayBuffers`, where Buffers live (Node's process.memoryUsage documentation). */
  external: number;
  arrayBuffers: number;
}

function sample(): Sample {
  const { rss, external, arrayBuffers } = process.memoryUsage();
  return { rss, external, arrayBuffers };
}

it('refuses a 50 MB upload with 400 while memory stays flat', async () => {
  const server = await startUploadServer();
  const baseline = sample();
  const peak = { ...baseline };
  let samples = 0;
  const record = () => {
    const now = sample();
    samples++;
    peak.rss = Math.max(peak.rss, now.rss);
    peak.external = Math.max(peak.external, now.external);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
  };
  const sampler = setInterval(record, 5);

  const progress = { bytes: 0 };
  // Also sample at every chunk: a busy event loop runs the interval less often than asked.
  const onPiece = (bytes: number) => {
    progress.bytes += bytes;
    record();
  };
  const startedAt = performance.now();
  const answer = await postUpload(server.url, { chunks: fiftyMegabyteUpload(onPiece), contentLength: declaredBytes });
  const answeredMs = performance.now() - startedAt;
  record();
  const sendError = await answer.sent;
  const sentMs = performance.now() - startedAt;
  record();
  clearInterval(sampler);

  const growth = {
    rss: peak.rss - baseline.rss,
    external: peak.external - baseline.external,
    arrayBuffers: peak.arrayBuffers - baseline.arrayBuffers,
  };
  const mib = (bytes: number) => `${(bytes / mebibyte).toFixed(1)} MiB`;
  console.log(
    `50 MB upload (${declaredBytes} bytes declared): answered ${answer.status} after ${answeredMs.toFixed(0)} ms; ` +
      `sending ${sendError ? `cut (${sendError.message})` : 'finished'} after ${sentMs.toFixed(0)} ms, ${mib(progress.bytes)} taken by the client socket; ` +
      `${samples} samples; peak growth over baseline: rss ${mib(growth.rss)} (baseline ${mib(baseline.rss)}), ` +
      `external ${mib(growth.external)} (baseline ${mib(baseline.external)}), arrayBuffers ${mib(growth.arrayBuffers)} (baseline ${mib(baseline.arrayBuffers)})`,
  );

  expect(answer).toMatchObject({ status: 400, body: { errors: [{ code: 'file_too_large' }] } });
  // Past the discard allowance the server cut the connection rather than read 45 MB for nothing.
  expect(sendError).toBeInstanceOf(Error);
  expect(progress.bytes).toBeLessThan(4_500_000 + defaultMaxDiscardBytes + 16 * mebibyte); // socket buffers on both sides
  expect(answeredMs).toBeLessThan(3_000);
  expect(growth.rss).toBeLessThan(20 * mebibyte);
  expect(growth.external).toBeLessThan(20 * mebibyte);
});
