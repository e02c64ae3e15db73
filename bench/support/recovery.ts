import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { firstPaceHeld } from '../../test/reliability/pace-windows.js';
import type { BenchContext } from '../types.js';
import { importJob, type ImportRun } from './import-run.js';
import { claimsInSandbox, readDatabase } from './sandbox-db.js';
import { setSandboxFaults, withSandbox } from './sandbox.js';

/**
 * How fast the import's pace follows a rate limit raised while it runs: the sandbox starts at
 * `fromRate`, and `raiseAfterMs` after its first claim is created the bench raises it to `toRate`
 * (`POST /_sandbox/faults`, which also fills the buckets). The pace is read from the service's side, and
 * reached only when it holds for `heldWindows` seconds in a row (the buckets' refill at the raise buys one
 * second's burst, which must not pass for a pace found):
 * the sandbox stamps each claim with its creation time (the machine's clock, as the bench's), so the
 * import needs no per-request logs, whose writing would cost the two processes what they measure.
 */

export interface RecoveryOptions {
  readonly input: string;
  readonly concurrency: number;
  readonly fromRate: number;
  readonly toRate: number;
  readonly raiseAfterMs: number;
  /** Every other fault setting, kept when the rate is raised (the body replaces the whole configuration). */
  readonly faults: { readonly seed: number; readonly latencyMs: number; readonly retryAfterSeconds: number };
}

export interface RecoveryRun {
  readonly run: ImportRun;
  /** Claims created a second from the first claim to the raise. */
  readonly paceBefore: number;
  /** Seconds from the raise to the end of the first of `heldWindows` 1 s windows in a row, each with `share` x `toRate` claims created; undefined if never. */
  readonly secondsToPace: number | undefined;
  /** The most claims created in any 1 s window after the raise. */
  readonly bestWindow: number;
}

const pollMs = 50;
/** The pace counts as reached when this many 1 s windows in a row reach it. */
export const heldWindows = 3;

function creationTimes(dbFile: string): number[] {
  return readDatabase(dbFile, (database) =>
    (database.prepare('SELECT created FROM claims ORDER BY seq').all() as { created: string }[]).map((row) =>
      Date.parse(row.created),
    ),
  ).sort((left, right) => left - right);
}

/** Waits for the first claim, then `raiseAfterMs`, then raises the limit; the time of the raise, or undefined if the import ended first. */
async function raiseWhenDue(
  sandboxUrl: string,
  dbFile: string,
  options: RecoveryOptions,
  ended: () => boolean,
): Promise<number | undefined> {
  while (!ended() && claimsInSandbox(dbFile) === 0) await sleep(pollMs);
  const dueMs = Date.now() + options.raiseAfterMs;
  while (!ended() && Date.now() < dueMs) await sleep(pollMs);
  if (ended()) return undefined;
  await setSandboxFaults(sandboxUrl, { ...options.faults, rateLimitPerSecond: options.toRate });
  return Date.now();
}

export async function measureRecovery(
  context: BenchContext,
  options: RecoveryOptions,
  share: number,
): Promise<RecoveryRun> {
  const dbFile = join(context.workDir, 'recovery.sandbox.db');
  const flags = [
    '--control',
    '--rate-limit',
    String(options.fromRate),
    '--latency-ms',
    String(options.faults.latencyMs),
    '--retry-after-seconds',
    String(options.faults.retryAfterSeconds),
    '--seed',
    String(options.faults.seed),
  ];
  return withSandbox({ cliBin: context.sandboxCliBin, dbFile, flags }, async (sandbox) => {
    let ended = false;
    const job = importJob(context, sandbox.url, {
      name: 'recovery',
      input: options.input,
      fileMode: 'none',
      concurrency: options.concurrency,
    }).finally(() => {
      ended = true;
    });
    const [{ run }, raisedAtMs] = await Promise.all([job, raiseWhenDue(sandbox.url, dbFile, options, () => ended)]);
    if (raisedAtMs === undefined)
      throw new Error(`weather bench: expected the import to run past the raise of its rate limit, got it ended first`);
    const times = creationTimes(dbFile);
    const firstMs = times[0] ?? raisedAtMs;
    const before = times.filter((timeMs) => timeMs < raisedAtMs).length;
    const { reachedAtMs, bestWindow: best } = firstPaceHeld(times, raisedAtMs, share * options.toRate, heldWindows);
    return {
      run,
      paceBefore: (1000 * before) / Math.max(1, raisedAtMs - firstMs),
      secondsToPace: reachedAtMs === undefined ? undefined : (reachedAtMs - raisedAtMs) / 1000,
      bestWindow: best,
    };
  });
}
