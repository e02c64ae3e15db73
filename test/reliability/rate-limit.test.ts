import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startCountingProxy } from '../helpers/counting-proxy.js';
import { testApiKey } from '../helpers/client.js';
import { startImportProcess } from '../helpers/import-process.js';
import { cliBin, startSandboxProcess } from '../helpers/sandbox-process.js';
import { readResults } from '../import/e2e-fixtures.js';
import { expectedClaimId, plannedRows, writeDisputesCsv } from '../import/generate.js';
import { sized } from './size.js';

/**
 * Rate etiquette (docs/rate-limits.md), the proof with real processes: the built CLI's import at
 * `--concurrency 32` against a sandbox process with `--rate-limit 50` (per API key), through a
 * pass-through proxy that counts the sandbox's answers by status. Without `--max-rps` the job
 * must keep its 429s under 5% of all requests (the pace follows the rate the service admits);
 * with `--max-rps 45` it must see none. Each run: every claim exactly once at the sandbox.
 *
 * At 50 requests a second, 2,000 claims (one request each: `--file-mode none`) take ~40 s a run.
 */

const mapping = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));
const claimCount = sized(2000, 400);
const rateLimit = 50;
const runDeadlineMs = sized(240_000, 60_000);
const expectedIds = Array.from({ length: claimCount }, (_, claim) => expectedClaimId(claim)).sort();

interface Throttling {
  requests: number;
  answered429: number;
  answered503: number;
  pauses: number;
  rate: { throttles: number; estimate: number; lowest: number; pacedMs: number };
  concurrency: { max: number; current: number; lowest: number; settled: number; cuts: number };
}

/** The "import finished" JSON log line's `throttling`, the machine-readable twin of the summary. */
function loggedThrottling(stderr: string): Throttling {
  const line = stderr.split('\n').find((text) => text.includes('"msg":"import finished"'));
  if (line === undefined) throw new Error(`expected an "import finished" log line, got:\n${stderr.slice(-3000)}`);
  return (JSON.parse(line) as { throttling: Throttling }).throttling;
}

/** Claim ids the sandbox holds, read from its own data file once the run has ended. */
function sandboxClaimIds(db: string): string[] {
  const database = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return (
      database.prepare("SELECT claim_id FROM claims WHERE environment = 'sandbox' ORDER BY claim_id").all() as {
        claim_id: string;
      }[]
    ).map((row) => row.claim_id);
  } finally {
    database.close();
  }
}

interface RunResult {
  seconds: number;
  byStatus: Readonly<Record<number, number>>;
  total: number;
  share429: number;
  throttling: Throttling;
  summary: string;
}

/** One import of the whole export against a fresh rate-limited sandbox process; checks every claim is there once. */
async function importAgainstRateLimit(dir: string, name: string, input: string, extra: string[]): Promise<RunResult> {
  const db = join(dir, `${name}.sandbox.db`);
  const sandbox = await startSandboxProcess(['--api-key', testApiKey, '--db', db, '--rate-limit', String(rateLimit)]);
  const proxy = await startCountingProxy(sandbox.url);
  const results = join(dir, `${name}.results.csv`);
  const args = [
    cliBin,
    'import',
    input,
    '--mapping',
    mapping,
    '--base-url',
    proxy.url,
    '--journal',
    join(dir, `${name}.journal.sqlite`),
    '--results',
    results,
    '--file-mode',
    'none',
    '--concurrency',
    '32',
    '--log-level',
    'info',
    ...extra,
  ];
  const startedMs = performance.now();
  const exit = await startImportProcess(args, runDeadlineMs).exit;
  const seconds = (performance.now() - startedMs) / 1000;
  expect(exit.signal, exit.stderr).toBeNull();
  expect(exit.code, exit.stderr).toBe(0);

  // The sandbox's own data: every claim once (a duplicate under any id would be extra), none missing.
  const claimIds = sandboxClaimIds(db);
  expect(new Set(claimIds).size, 'duplicate claim ids').toBe(claimIds.length);
  expect(
    claimIds.filter((id) => !expectedIds.includes(id)),
    'unexpected claims',
  ).toEqual([]);
  expect(
    expectedIds.filter((id) => !claimIds.includes(id)),
    'missing claims',
  ).toEqual([]);
  // The results: every row created, none failed by the throttling.
  const { rows } = await readResults(results);
  expect(
    rows.filter((row) => row.outcome !== 'created').map((row) => `${row.line} ${row.outcome} ${row.error_code}`),
  ).toEqual([]);
  expect(rows).toHaveLength(claimCount);

  const byStatus = proxy.byStatus();
  const total = proxy.total();
  const throttling = loggedThrottling(exit.stderr);
  const summary = exit.stderr
    .split('\n')
    .filter((line) =>
      /^(requests|throttled|rate limited|refused|claims in flight|--max-rps|the pace was set by)/.test(line),
    )
    .join('\n');
  // What the job says it saw is what the wire carried.
  expect(throttling.requests).toBe(total);
  expect(throttling.answered429).toBe(byStatus[429] ?? 0);
  expect(byStatus[201]).toBe(claimCount);
  return { seconds, byStatus, total, share429: (byStatus[429] ?? 0) / total, throttling, summary };
}

describe(`${claimCount} claims at --concurrency 32 against sandbox --rate-limit ${rateLimit}`, () => {
  it(
    'without --max-rps: finishes, every claim once, 429s under 5% of requests; with --max-rps 45: no 429 at all',
    { timeout: sized(600_000, 150_000) },
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-rate-limit-'));
      onTestFinished(async () => rm(dir, { recursive: true, force: true }));
      const input = join(dir, 'disputes.csv');
      await writeDisputesCsv(input, plannedRows({ claims: claimCount, sizeOf: () => 1, block: 1 }));

      const adaptive = await importAgainstRateLimit(dir, 'adaptive', input, []);
      console.log(
        `rate-limit proof, no --max-rps: ${adaptive.seconds.toFixed(1)} s, ${adaptive.total} requests, answers ${JSON.stringify(adaptive.byStatus)}, ` +
          `429 share ${(adaptive.share429 * 100).toFixed(2)}%\n${adaptive.summary}`,
      );
      expect(adaptive.share429).toBeLessThan(0.05);
      // The job was throttled (the limit is far below what 32 in flight would send) and followed it as a rate: the
      // pace measured near the limit, the claims in flight not cut for it, no pause for a second's Retry-After.
      expect(adaptive.byStatus[429] ?? 0).toBeGreaterThan(0);
      expect(adaptive.throttling.concurrency.cuts).toBe(0);
      expect(adaptive.throttling.pauses).toBe(0);
      expect(adaptive.throttling.rate.estimate).toBeGreaterThan(rateLimit * 0.6);
      expect(adaptive.throttling.rate.estimate).toBeLessThan(rateLimit * 1.6);
      expect(adaptive.summary).toMatch(
        /^rate limited \(429\): \d+ \([\d.]+%\); paced to the service's rate, last measured at [\d.]+ a second \(cut (once|\d+ times), lowest [\d.]+\)$/m,
      );
      expect(adaptive.summary).toMatch(
        /^the pace was set by: the service's rate limit for [\d.]+ s \(of [\d.]+ s sending\)$/m,
      );

      const paced = await importAgainstRateLimit(dir, 'paced', input, ['--max-rps', '45']);
      console.log(
        `rate-limit proof, --max-rps 45: ${paced.seconds.toFixed(1)} s, ${paced.total} requests, answers ${JSON.stringify(paced.byStatus)}\n${paced.summary}`,
      );
      expect(paced.byStatus[429] ?? 0).toBe(0);
      expect(paced.total).toBe(claimCount);
      expect(paced.summary).toMatch(
        new RegExp(`^requests: ${claimCount.toLocaleString('en-US')} in [\\d.]+ s \\([\\d.]+ a second\\)$`, 'm'),
      );
      expect(paced.summary).toContain('throttled: never (claims in flight stayed at 32)');
    },
  );
});
