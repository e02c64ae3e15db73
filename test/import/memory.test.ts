import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, it, onTestFinished } from 'vitest';
import { mib, runNodeMeasured } from '../../bench/support/process.js';
import { cliBin } from '../helpers/sandbox-process.js';
import { oneToThreeRows, plannedRows, writeDisputesCsv } from './generate.js';

/**
 * Flat memory: a generated dry run's peak resident set stays under 250 MB whatever the input
 * size, as the import must keep its memory constant on any input. 100,000 rows in the normal
 * suite; BULK_DISPUTES_MILLION=1 runs the release figure, 1,000,000 rows.
 */

const million = process.env.BULK_DISPUTES_MILLION === '1';
const rowCount = million ? 1_000_000 : 100_000;
const mebibyte = 1024 * 1024;
/** 250 MB as memory is counted (the kernel's VmHWM and GNU time report KiB): 250 MiB. */
const peakRssLimitBytes = 250 * mebibyte;
const mapping = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));
/** Reads the results line by line: data lines counted, line numbers in order, every outcome `valid`. */
async function checkResults(file: string): Promise<{ dataLines: number; problems: string[] }> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  let dataLines = 0;
  const problems: string[] = [];
  let header = true;
  for await (const line of lines) {
    if (header) {
      header = false;
      if (!line.startsWith('line,claim_key,claim_id,case_id,outcome,')) problems.push(`header: ${line.slice(0, 80)}`);
      continue;
    }
    dataLines++;
    // The generated cells hold no commas or quotes, so the status columns split plainly.
    const [lineNumber, , , , outcome] = line.split(',', 5);
    if ((lineNumber !== String(dataLines + 1) || outcome !== 'valid') && problems.length < 5)
      problems.push(`data line ${dataLines}: ${line.slice(0, 160)}`);
  }
  return { dataLines, problems };
}

it(
  `dry-runs ${rowCount.toLocaleString('en-US')} generated rows with a peak RSS under 250 MB`,
  { timeout: million ? 3_600_000 : 300_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-memory-'));
    onTestFinished(async () => rm(dir, { recursive: true, force: true }));
    const input = join(dir, 'big.csv');
    const results = join(dir, 'big.results.csv');
    // Claims of 1 to 3 rows, spread over blocks of 50 claims: rows of one claim are not adjacent.
    const written = await writeDisputesCsv(input, plannedRows({ rows: rowCount, sizeOf: oneToThreeRows, block: 50 }));
    expect(written.rows).toBe(rowCount);

    // The benchmark's measured run (GNU time's figure and VmHWM polled from /proc, the larger).
    const run = await runNodeMeasured(
      [cliBin, 'import', input, '--mapping', mapping, '--dry-run', '--results', results, '--log-level', 'warn'],
      {
        timeReport: join(dir, 'time.txt'),
        timeoutMs: million ? 3_500_000 : 290_000,
      },
    );
    const peakBytes = run.peakRssBytes;
    console.log(
      `memory: ${rowCount} rows (${mib(written.bytes)} input), dry run ${run.seconds.toFixed(1)} s, peak RSS ${mib(peakBytes)} (${run.peakRssSource})`,
    );
    // Exit 0: every generated row maps and every claim is valid, so every outcome is `valid`.
    expect({ code: run.code, signal: run.signal }, run.stderr).toEqual({ code: 0, signal: null });
    const { dataLines, problems } = await checkResults(results);
    expect(problems).toEqual([]);
    expect(dataLines).toBe(rowCount);
    // The measurement saw the process (a zero would pass the limit vacuously).
    expect(peakBytes).toBeGreaterThan(20 * mebibyte);
    expect(peakBytes).toBeLessThan(peakRssLimitBytes);
  },
);
