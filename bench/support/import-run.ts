import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { BenchContext } from '../types.js';
import { genericMappingFile } from './paths.js';
import { benchApiKey, withSandbox } from './sandbox.js';

/**
 * `bulk-disputes import` as a real process, timed from its own summary at the log level a job
 * runs at (info). The "import finished" line carries the job's `throttling` counts, among them
 * `sendingMs`, from the first request sent to the last answer read (src/api/client/pacing.ts):
 * staging before it and the results CSV after it are left out. (The bench used to run the
 * import at debug level to time it from a log line per request; writing and parsing those lines
 * cost the two processes on two cores about as much as the claims themselves at concurrency 64.)
 */

export interface ImportRunOptions {
  readonly cliBin: string;
  /** Arguments after `import`. */
  readonly args: readonly string[];
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly cwd: string;
  /** More environment for the import (a proxy, CA and client certificate, as in a bank's network). */
  readonly env?: NodeJS.ProcessEnv;
}

export interface ImportRun {
  /** From the first request sent to the last answer read. */
  readonly sendingSeconds: number;
  /** From process start to the "input staged" log line (start-up, mapping, staging). */
  readonly stagedAfterSeconds: number;
  readonly wallSeconds: number;
  /** Every request of the job, retries and throttled ones included. */
  readonly requests: number;
  readonly answered429: number;
  readonly answered503: number;
  /** The "import finished" line's outcome counts, e.g. { created: 6400 }. */
  readonly outcomes: Readonly<Record<string, number>>;
  /** The summary's phases (`phasesMs` of "import finished"), e.g. { staging: 812, sending: 40123, results: 95 }. */
  readonly phasesMs: Readonly<Record<string, number>>;
  /** The summary's whole `throttling` record (pauses, the concurrency controller's stats), for the notes that show it. */
  readonly throttling: Throttling;
}

export interface Throttling {
  requests: number;
  answered429: number;
  answered503: number;
  sendingMs: number;
  /** The rest, as the import logs it (docs/rate-limits.md, "Reading the summary"): read where a note shows it. */
  pauses?: unknown;
  pausedMs?: unknown;
  concurrency?: unknown;
}

export interface LogLine {
  msg?: unknown;
  time?: unknown;
  outcomes?: unknown;
  cases?: unknown;
  throttling?: unknown;
  phasesMs?: unknown;
}

/** What the log lines add up to; one line at a time. */
class LogTally {
  stagedAtMs: number | undefined;
  outcomes: Record<string, number> | undefined;
  throttling: Throttling | undefined;
  phasesMs: Record<string, number> = {};
  /** The last lines: the summary and any warning, for error messages. */
  tail: string[] = [];

  add(line: string): void {
    const entry = parseJson(line);
    if (entry?.msg === 'input staged' && typeof entry.time === 'number') this.stagedAtMs = entry.time;
    if (entry?.msg === 'import finished') {
      if (typeof entry.outcomes === 'object' && entry.outcomes !== null)
        this.outcomes = entry.outcomes as Record<string, number>;
      if (isThrottling(entry.throttling)) this.throttling = entry.throttling;
      if (typeof entry.phasesMs === 'object' && entry.phasesMs !== null)
        this.phasesMs = entry.phasesMs as Record<string, number>;
    }
    this.tail = [...this.tail.slice(-30), line];
  }
}

export function isThrottling(value: unknown): value is Throttling {
  const counts = value as Partial<Record<keyof Throttling, unknown>> | null | undefined;
  return ['requests', 'answered429', 'answered503', 'sendingMs'].every(
    (key) => typeof counts?.[key as keyof Throttling] === 'number',
  );
}

export function parseJson(line: string): LogLine | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as LogLine;
  } catch {
    return undefined;
  }
}

export async function runImportTimed(options: ImportRunOptions): Promise<ImportRun> {
  const startedMs = Date.now();
  const child = spawn(process.execPath, [options.cliBin, '--log-level', 'info', 'import', ...options.args], {
    cwd: options.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...options.env, CLAIMS_BASE_URL: options.baseUrl, CLAIMS_API_KEY: options.apiKey },
  });
  const tally = new LogTally();
  const lines = createInterface({ input: child.stderr, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => {
    tally.add(line);
  });
  const [code] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('close', (exitCode, signal) => {
      resolve([exitCode, signal]);
    }),
  );
  const wallSeconds = (Date.now() - startedMs) / 1000;
  const { outcomes, stagedAtMs, throttling } = tally;
  if (
    code !== 0 ||
    outcomes === undefined ||
    stagedAtMs === undefined ||
    throttling === undefined ||
    throttling.requests === 0
  ) {
    throw new Error(
      `import: expected exit 0 with staging, requests and a summary in its logs, got exit ${String(code)}:\n${tally.tail.join('\n')}`,
    );
  }
  return {
    sendingSeconds: throttling.sendingMs / 1000,
    stagedAfterSeconds: (stagedAtMs - startedMs) / 1000,
    wallSeconds,
    requests: throttling.requests,
    answered429: throttling.answered429,
    answered503: throttling.answered503,
    outcomes,
    throttling,
    phasesMs: tally.phasesMs,
  };
}

export interface SandboxImportOptions {
  /** Names the run's files in the work dir: `<name>.sandbox.db`, `.journal.sqlite`, `.results.csv`. */
  readonly name: string;
  readonly input: string;
  /** `bulk-disputes sandbox` flags, e.g. `--latency-ms 50` or `--rate-limit 100`. */
  readonly sandboxFlags: readonly string[];
  /** Import flags beside the generic mapping, `--file-mode none` and `--concurrency`. */
  readonly concurrency: number;
  readonly importFlags?: readonly string[];
  readonly importEnv?: NodeJS.ProcessEnv;
}

/**
 * One timed import of `input` through the generic mapping, creating only (`--file-mode none`),
 * into a fresh sandbox process stopped afterwards: the submit and rate-limit cases' run.
 */
export async function importIntoSandbox(context: BenchContext, options: SandboxImportOptions): Promise<ImportRun> {
  return withSandbox(
    {
      cliBin: context.sandboxCliBin,
      dbFile: join(context.workDir, `${options.name}.sandbox.db`),
      flags: [...options.sandboxFlags],
    },
    async (sandbox) => {
      const job = await importJob(context, sandbox.url, { ...options, fileMode: 'none' });
      return job.run;
    },
  );
}

export interface JobOptions {
  /** Names the job's files in the work dir: `<name>.journal.sqlite`, `<name>.results.csv`. */
  readonly name: string;
  readonly input: string;
  readonly fileMode: 'none' | 'auto' | 'chargeback';
  readonly concurrency: number;
  /** More import flags, after `--file-mode` and `--concurrency` (a later `--file-mode` wins). */
  readonly importFlags?: readonly string[];
  readonly importEnv?: NodeJS.ProcessEnv;
}

export interface ImportedJob {
  readonly run: ImportRun;
  readonly journal: string;
  readonly results: string;
}

/**
 * One timed import of `input` through the generic mapping into a service already running at
 * `baseUrl`: the night that the cases acting on a job's cases afterwards (withdraw, track) take
 * back or follow, with the job's journal and results as their sources.
 */
export async function importJob(context: BenchContext, baseUrl: string, options: JobOptions): Promise<ImportedJob> {
  const file = (suffix: string) => join(context.workDir, `${options.name}.${suffix}`);
  const run = await runImportTimed({
    cliBin: context.cliBin,
    args: [
      options.input,
      ...[
        '--mapping',
        genericMappingFile,
        '--file-mode',
        options.fileMode,
        '--concurrency',
        String(options.concurrency),
        ...(options.importFlags ?? []),
      ],
      ...['--journal', file('journal.sqlite'), '--results', file('results.csv')],
    ],
    baseUrl,
    apiKey: benchApiKey,
    cwd: context.workDir,
    env: options.importEnv,
  });
  return { run, journal: file('journal.sqlite'), results: file('results.csv') };
}
