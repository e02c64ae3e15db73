import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { BenchContext } from '../types.js';
import { genericMappingFile } from './paths.js';
import { benchApiKey, withSandbox } from './sandbox.js';

/**
 * `bulk-disputes import` as a real process, timed from its own logs. At `--log-level debug` the
 * client logs every request when its response has been read ("claims request": pino's `time` at
 * the end, `durationMs` of the attempt), so the first request's start and the last one's end
 * bracket the sending phase exactly: staging before it and the results CSV after it are left out.
 */

export interface ImportRunOptions {
  readonly cliBin: string;
  /** Arguments after `import`. */
  readonly args: readonly string[];
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly cwd: string;
}

export interface ImportRun {
  /** From the first request's start to the last response's end. */
  readonly sendingSeconds: number;
  /** From process start to the "input staged" log line (start-up, mapping, staging). */
  readonly stagedAfterSeconds: number;
  readonly wallSeconds: number;
  /** Requests by "METHOD path status", e.g. "POST /v2/issuer/new_claim 201". */
  readonly requests: ReadonlyMap<string, number>;
  /** The "import finished" line's outcome counts, e.g. { created: 6400 }. */
  readonly outcomes: Readonly<Record<string, number>>;
}

interface LogLine {
  msg?: unknown;
  time?: unknown;
  durationMs?: unknown;
  method?: unknown;
  path?: unknown;
  status?: unknown;
  networkCode?: unknown;
  outcomes?: unknown;
}

/** What the log lines add up to; one line at a time, so a big import's log is never held whole. */
class LogTally {
  firstStartMs = Number.POSITIVE_INFINITY;
  lastEndMs = Number.NEGATIVE_INFINITY;
  stagedAtMs: number | undefined;
  readonly requests = new Map<string, number>();
  outcomes: Record<string, number> | undefined;
  /** The last lines that are not request logs: the summary and any warning, for error messages. */
  tail: string[] = [];

  add(line: string): void {
    const entry = parseJson(line);
    if (entry?.msg === 'claims request' && typeof entry.time === 'number' && typeof entry.durationMs === 'number') {
      this.firstStartMs = Math.min(this.firstStartMs, entry.time - entry.durationMs);
      this.lastEndMs = Math.max(this.lastEndMs, entry.time);
      const key = `${String(entry.method)} ${String(entry.path)} ${String(entry.status ?? entry.networkCode)}`;
      this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
      return;
    }
    if (entry?.msg === 'input staged' && typeof entry.time === 'number') this.stagedAtMs = entry.time;
    if (entry?.msg === 'import finished' && typeof entry.outcomes === 'object' && entry.outcomes !== null) this.outcomes = entry.outcomes as Record<string, number>;
    this.tail = [...this.tail.slice(-30), line];
  }
}

function parseJson(line: string): LogLine | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as LogLine;
  } catch {
    return undefined;
  }
}

export async function runImportTimed(options: ImportRunOptions): Promise<ImportRun> {
  const startedMs = Date.now();
  const child = spawn(process.execPath, [options.cliBin, '--log-level', 'debug', 'import', ...options.args], {
    cwd: options.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, CLAIMS_BASE_URL: options.baseUrl, CLAIMS_API_KEY: options.apiKey },
  });
  const tally = new LogTally();
  const lines = createInterface({ input: child.stderr, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => { tally.add(line); });
  const [code] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (exitCode, signal) => { resolve([exitCode, signal]); }));
  const wallSeconds = (Date.now() - startedMs) / 1000;
  if (code !== 0 || tally.outcomes === undefined || tally.stagedAtMs === undefined || tally.requests.size === 0) {
    throw new Error(`import: expected exit 0 with staging, requests and a summary in its logs, got exit ${String(code)}:\n${tally.tail.join('\n')}`);
  }
  return {
    sendingSeconds: (tally.lastEndMs - tally.firstStartMs) / 1000,
    stagedAfterSeconds: (tally.stagedAtMs - startedMs) / 1000,
    wallSeconds,
    requests: tally.requests,
    outcomes: tally.outcomes,
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
}

/**
 * One timed import of `input` through the generic mapping, creating only (`--file-mode none`),
 * into a fresh sandbox process stopped afterwards: the submit and rate-limit cases' run.
 */
export async function importIntoSandbox(context: BenchContext, options: SandboxImportOptions): Promise<ImportRun> {
  const file = (suffix: string) => join(context.workDir, `${options.name}.${suffix}`);
  return withSandbox({ cliBin: context.cliBin, dbFile: file('sandbox.db'), flags: [...options.sandboxFlags] }, async (sandbox) =>
    runImportTimed({
      cliBin: context.cliBin,
      args: [
        options.input,
        ...['--mapping', genericMappingFile, '--file-mode', 'none', '--concurrency', String(options.concurrency), ...(options.importFlags ?? [])],
        ...['--journal', file('journal.sqlite'), '--results', file('results.csv')],
      ],
      baseUrl: sandbox.url,
      apiKey: benchApiKey,
      cwd: context.workDir,
    }),
  );
}
