import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { isThrottling, parseJson, type Throttling } from './import-run.js';

/**
 * `bulk-disputes withdraw` as a real process, timed from its own summary at info level, as
 * import-run.ts times the import: the "withdraw finished" line carries the job's `throttling`
 * counts, among them `sendingMs`, from the first request sent (the first retrieve) to the last
 * answer read (the last withdrawal). Reading the sources before it and the results after it are
 * left out.
 */

export interface WithdrawRunOptions {
  readonly cliBin: string;
  /** Arguments after `withdraw`. */
  readonly args: readonly string[];
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly cwd: string;
}

export interface WithdrawRun {
  /** From the first request sent to the last answer read. */
  readonly sendingSeconds: number;
  readonly wallSeconds: number;
  /** Every request of the job (retrieves and withdrawals), retries and throttled ones included. */
  readonly requests: number;
  readonly answered429: number;
  readonly answered503: number;
  /** The summary's counts of case lines by outcome, e.g. { withdrawn: 4800 }. */
  readonly outcomes: Readonly<Record<string, number>>;
  readonly cases: number;
}

interface Summary {
  outcomes: Record<string, number>;
  cases: number;
  throttling: Throttling;
}

function summaryOf(line: string): Summary | undefined {
  const entry = parseJson(line);
  if (entry?.msg !== 'withdraw finished' || !isThrottling(entry.throttling)) return undefined;
  if (typeof entry.outcomes !== 'object' || entry.outcomes === null || typeof entry.cases !== 'number')
    return undefined;
  return { outcomes: entry.outcomes as Record<string, number>, cases: entry.cases, throttling: entry.throttling };
}

export async function runWithdrawTimed(options: WithdrawRunOptions): Promise<WithdrawRun> {
  const startedMs = Date.now();
  const child = spawn(process.execPath, [options.cliBin, '--log-level', 'info', 'withdraw', ...options.args], {
    cwd: options.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, CLAIMS_BASE_URL: options.baseUrl, CLAIMS_API_KEY: options.apiKey },
  });
  let summary: Summary | undefined;
  let tail: string[] = [];
  const lines = createInterface({ input: child.stderr, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => {
    summary = summaryOf(line) ?? summary;
    tail = [...tail.slice(-30), line];
  });
  const [code] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('close', (exitCode, signal) => {
      resolve([exitCode, signal]);
    }),
  );
  const wallSeconds = (Date.now() - startedMs) / 1000;
  if (code !== 0 || summary === undefined || summary.throttling.requests === 0) {
    throw new Error(
      `withdraw: expected exit 0 with requests and a summary in its logs, got exit ${String(code)}:\n${tail.join('\n')}`,
    );
  }
  const { throttling } = summary;
  return {
    sendingSeconds: throttling.sendingMs / 1000,
    wallSeconds,
    requests: throttling.requests,
    answered429: throttling.answered429,
    answered503: throttling.answered503,
    outcomes: summary.outcomes,
    cases: summary.cases,
  };
}
