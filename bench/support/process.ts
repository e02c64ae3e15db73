import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `node <args>` as a child and measures it: wall time, and peak resident set size the way
 * test/import/memory.test.ts does, two ways. GNU time's maximum RSS (exact, from the kernel's
 * rusage at exit) when /usr/bin/time is installed, and the kernel's VmHWM high-water mark polled
 * from /proc every 100 ms (only growth in the last interval can be missed). The peak is the larger.
 */

const gnuTime = '/usr/bin/time';
const outputTailChars = 20_000;

export interface MeasuredRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** The last 20,000 characters: enough for an error, bounded for a chatty child. */
  stderr: string;
  seconds: number;
  peakRssBytes: number;
  /** Which measurements the peak comes from, e.g. "GNU time 80.1 MiB, VmHWM polled 79.8 MiB". */
  peakRssSource: string;
}

export interface RunOptions {
  /** A file for GNU time's report (in the bench's work directory). */
  timeReport: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Keep the whole stdout (a worker's JSON); otherwise only its tail. */
  keepStdout?: boolean;
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** The kernel's high-water mark of a process's resident set, or undefined once it is gone. */
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

export async function runNodeMeasured(args: readonly string[], options: RunOptions): Promise<MeasuredRun> {
  const useTime = existsSync(gnuTime);
  const command = useTime ? gnuTime : process.execPath;
  const commandArgs = useTime ? ['-f', '%M', '-o', options.timeReport, process.execPath, ...args] : [...args];
  const started = performance.now();
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    if (options.keepStdout !== true) stdout = stdout.slice(-outputTailChars);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-outputTailChars);
  });
  // 'close', not 'exit': stdout and stderr are then read to their end.
  const closed = new Promise<Exit>((resolve) => {
    child.once('close', (code, signal) => {
      resolve({ code, signal });
    });
  });
  let polledPeakBytes = 0;
  let nodePid = useTime ? undefined : child.pid;
  const killAll = () => {
    // Under GNU time, node is time's child: killing time alone would leave node running.
    if (nodePid !== undefined && nodePid !== child.pid) {
      try {
        process.kill(nodePid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    child.kill('SIGKILL');
  };
  const watchdog = setTimeout(killAll, options.timeoutMs);
  let exited: Exit | undefined;
  try {
    while (exited === undefined) {
      if (nodePid === undefined && child.pid !== undefined) nodePid = await childOf(child.pid);
      if (nodePid !== undefined) polledPeakBytes = Math.max(polledPeakBytes, (await highWaterMark(nodePid)) ?? 0);
      exited = await Promise.race([closed, sleep(100, undefined)]);
    }
  } finally {
    clearTimeout(watchdog);
    // Only when the loop itself failed: never leave a child running behind the benchmark.
    if (child.exitCode === null && child.signalCode === null) killAll();
  }
  const seconds = (performance.now() - started) / 1000;
  const timeKiB = useTime
    ? /^(\d+)\s*$/m.exec(await readFile(options.timeReport, 'utf8').catch(() => ''))?.[1]
    : undefined;
  if (useTime) await rm(options.timeReport, { force: true });
  const timePeakBytes = timeKiB === undefined ? undefined : Number(timeKiB) * 1024;
  const sources = [
    ...(timePeakBytes === undefined ? [] : [`GNU time ${mib(timePeakBytes)}`]),
    `VmHWM polled ${mib(polledPeakBytes)}`,
  ];
  return {
    ...exited,
    stdout,
    stderr,
    seconds,
    peakRssBytes: Math.max(polledPeakBytes, timePeakBytes ?? 0),
    peakRssSource: sources.join(', '),
  };
}

/** Throws with the child's stderr unless it exited 0. */
export function expectSuccess(run: MeasuredRun, what: string): void {
  if (run.code === 0) return;
  const how = run.signal === null ? `exit code ${String(run.code)}` : `signal ${run.signal}`;
  throw new Error(`${what}: expected exit code 0, got ${how}: ${run.stderr.trim().split('\n').slice(-5).join(' | ')}`);
}

export { mib };
