import { spawn } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { expect, it, onTestFinished } from 'vitest';
import { cliBin } from '../helpers/sandbox-process.js';
import { oneToThreeRows, plannedRows, writeDisputesCsv } from './generate.js';

/**
 * Issue 5, must-show 6: flat memory. A generated dry run's peak resident set stays under 250 MB
 * whatever the input size (architecture.md: "constant memory on any input size"). 100,000 rows
 * in the normal suite; BULK_DISPUTES_MILLION=1 runs the release figure, 1,000,000 rows.
 */

const million = process.env.BULK_DISPUTES_MILLION === '1';
const rowCount = million ? 1_000_000 : 100_000;
const mebibyte = 1024 * 1024;
/** 250 MB as memory is counted (the kernel's VmHWM and GNU time report KiB): 250 MiB. */
const peakRssLimitBytes = 250 * mebibyte;
const mapping = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));
const gnuTime = '/usr/bin/time';

interface MeasuredRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  seconds: number;
  /** The highest VmHWM read from /proc while the process ran. */
  polledPeakBytes: number;
  /** GNU time's maximum resident set size, exact, when /usr/bin/time is there. */
  timePeakBytes: number | undefined;
}

/** The kernel's high-water mark of the process's resident set, or undefined once it is gone. */
async function highWaterMark(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const match = status === undefined ? null : /^VmHWM:\s+(\d+) kB$/m.exec(status);
  return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
}

/** The (only) child of a process: node under /usr/bin/time. */
async function childOf(pid: number): Promise<number | undefined> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  const [first] = children.trim().split(/\s+/).filter(Boolean).map(Number);
  return first;
}

/**
 * Runs `node <args>` and measures its peak RSS two ways: VmHWM polled every 100 ms (the kernel
 * keeps the maximum, so only the last poll interval can be missed), and GNU time's exact figure
 * when it is installed (node then runs under it, and the poll follows node, not time).
 */
async function runMeasured(args: string[], timeoutMs: number, workDir: string): Promise<MeasuredRun> {
  const useTime = existsSync(gnuTime);
  const timeFile = join(workDir, 'time.txt');
  const command = useTime ? gnuTime : process.execPath;
  const commandArgs = useTime ? ['-f', '%M', '-o', timeFile, process.execPath, ...args] : args;
  const started = performance.now();
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-20_000);
  });
  const watchdog = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  onTestFinished(() => {
    clearTimeout(watchdog);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
  });

  let polledPeakBytes = 0;
  let nodePid = useTime ? undefined : child.pid;
  while (exited === undefined) {
    if (nodePid === undefined && child.pid !== undefined) nodePid = await childOf(child.pid);
    if (nodePid !== undefined) polledPeakBytes = Math.max(polledPeakBytes, (await highWaterMark(nodePid)) ?? 0);
    await Promise.race([exit, sleep(100)]);
  }
  clearTimeout(watchdog);
  const seconds = (performance.now() - started) / 1000;
  const timeText = useTime ? await readFile(timeFile, 'utf8').catch(() => '') : '';
  const timeKiB = /^(\d+)\s*$/m.exec(timeText)?.[1];
  return { ...exited, stderr, seconds, polledPeakBytes, timePeakBytes: timeKiB === undefined ? undefined : Number(timeKiB) * 1024 };
}

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
    if ((lineNumber !== String(dataLines + 1) || outcome !== 'valid') && problems.length < 5) problems.push(`data line ${dataLines}: ${line.slice(0, 160)}`);
  }
  return { dataLines, problems };
}

it(
  `dry-runs ${rowCount.toLocaleString('en-US')} generated rows with a peak RSS under 250 MB (issue 5, must-show 6)`,
  { timeout: million ? 3_600_000 : 300_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-memory-'));
    onTestFinished(async () => rm(dir, { recursive: true, force: true }));
    const input = join(dir, 'big.csv');
    const results = join(dir, 'big.results.csv');
    // Claims of 1 to 3 rows, spread over blocks of 50 claims: rows of one claim are not adjacent.
    const written = await writeDisputesCsv(input, plannedRows({ rows: rowCount, sizeOf: oneToThreeRows, block: 50 }));
    expect(written.rows).toBe(rowCount);

    const run = await runMeasured(
      [cliBin, 'import', input, '--mapping', mapping, '--dry-run', '--results', results, '--log-level', 'warn'],
      million ? 3_500_000 : 290_000,
      dir,
    );
    const peakBytes = Math.max(run.polledPeakBytes, run.timePeakBytes ?? 0);
    const mib = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : (bytes / mebibyte).toFixed(1));
    console.log(
      `memory: ${rowCount} rows (${mib(written.bytes)} MiB input), dry run ${run.seconds.toFixed(1)} s, ` +
        `peak RSS ${mib(peakBytes)} MiB (VmHWM polled ${mib(run.polledPeakBytes)} MiB, GNU time ${mib(run.timePeakBytes)} MiB)`,
    );
    // Exit 0: every generated row maps and every claim is valid, so every outcome is `valid`.
    expect({ code: run.code, signal: run.signal }, run.stderr).toEqual({ code: 0, signal: null });
    const { dataLines, problems } = await checkResults(results);
    expect(problems).toEqual([]);
    expect(dataLines).toBe(rowCount);
    // The measurement saw the process (a zero would pass the limit vacuously).
    expect(run.polledPeakBytes).toBeGreaterThan(20 * mebibyte);
    expect(peakBytes).toBeLessThan(peakRssLimitBytes);
  },
);
