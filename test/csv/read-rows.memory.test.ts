import { Readable } from 'node:stream';
import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { csvDialectSchema } from '../../src/csv/dialect.js';
import { readRows } from '../../src/csv/read-rows.js';

const rowCount = 200_000;
const rowsPerChunk = 100;
const mebibyte = 1024 * 1024;

function* generatedCsv(): Generator<Buffer> {
  yield Buffer.from('claim_key,case_id,merchant,amount,currency,note\r\n');
  const padding = 'x'.repeat(120);
  for (let first = 0; first < rowCount; first += rowsPerChunk) {
    let text = '';
    for (let row = first; row < first + rowsPerChunk; row++) {
      text += `K${row},C${row},"Café ${row}, Ltd",${row % 1000}.99,EUR,"${padding}\r\nline two"\r\n`;
    }
    yield Buffer.from(text);
  }
}

const footprint = (): number => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

it('streams 200,000 rows to a slow consumer in flat memory', { timeout: 120_000 }, async () => {
  let inputBytes = 0;
  const counted = Readable.from(
    (function* () {
      for (const chunk of generatedCsv()) {
        inputBytes += chunk.length;
        yield chunk;
      }
    })(),
  );
  const baseline = footprint();
  let peak = baseline;
  let rows = 0;
  let lastLine = 0;
  for await (const row of readRows(counted, csvDialectSchema.parse({}))) {
    if (!('cells' in row)) throw new Error(`unexpected row failure at line ${row.line}: ${row.error.message}`);
    rows++;
    lastLine = row.line;
    // A slow consumer: every row waits a turn of the event loop, every 2,000th a timer.
    await (rows % 2000 === 0 ? sleep(1) : yieldToEventLoop());
    if (rows % 1000 === 0) peak = Math.max(peak, footprint());
  }
  const growthMiB = (peak - baseline) / mebibyte;
  console.log(
    `csv memory: input ${(inputBytes / mebibyte).toFixed(1)} MiB, ${rows} rows, peak heap+arrayBuffers growth ${growthMiB.toFixed(1)} MiB`,
  );
  expect(rows).toBe(rowCount);
  expect(lastLine).toBe(2 + (rowCount - 1) * 2);
  expect(inputBytes).toBeGreaterThan(30 * mebibyte);
  expect(growthMiB).toBeLessThan(64);
});
