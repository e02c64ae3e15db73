import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { ThrottlingSummary } from '../../src/rate/follow-throttling.js';
import { testApiKey } from '../helpers/client.js';
import { startCountingProxy } from '../helpers/counting-proxy.js';
import { startImportProcess } from '../helpers/import-process.js';
import { cliBin, startSandboxProcess } from '../helpers/sandbox-process.js';
import { readResults } from '../import/e2e-fixtures.js';
import { expectedClaimId } from '../import/generate.js';

/**
 * One import of one-row claims (`--file-mode none`: one request a claim) by the built CLI, as a
 * process, against a sandbox process with faults, through a proxy that counts the sandbox's answers
 * by status on the wire. Afterwards the sandbox's own data file must hold every claim exactly once.
 */

const mapping = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));

export interface WeatherSetting {
  readonly dir: string;
  readonly name: string;
  readonly input: string;
  readonly claims: number;
  /** Sandbox flags: its faults. */
  readonly sandboxFlags: readonly string[];
  readonly concurrency: number;
  readonly deadlineMs: number;
}

/** What a test may do while the import runs (change the sandbox's faults), given the sandbox's URL and data file. */
export type WhileRunning<Result> = (sandbox: { url: string; db: string; ended: () => boolean }) => Promise<Result>;

export interface WeatherRun<Result> {
  /** Answers by status as the proxy counted them. */
  readonly byStatus: Readonly<Record<number, number>>;
  readonly requests: number;
  /** The "import finished" JSON log line's `throttling`. */
  readonly throttling: ThrottlingSummary;
  /** The summary's lines for people (stderr). */
  readonly summary: string;
  /** Claims a second over the job's sending time (its first request sent to its last answer). */
  readonly pace: number;
  /** Each claim's creation time at the sandbox, in order. */
  readonly creationTimes: readonly number[];
  readonly during: Result;
}

/** The "import finished" JSON log line's `throttling`, the machine-readable twin of the summary. */
function loggedThrottling(stderr: string): ThrottlingSummary {
  const line = stderr.split('\n').find((text) => text.includes('"msg":"import finished"'));
  if (line === undefined) throw new Error(`expected an "import finished" log line, got:\n${stderr.slice(-3000)}`);
  return (JSON.parse(line) as { throttling: ThrottlingSummary }).throttling;
}

/** The sandbox's claims (id, creation time), read from its own data file (WAL: readable beside the running sandbox). */
export function sandboxClaims(db: string): { claimId: string; createdMs: number }[] {
  const database = new Database(db, { readonly: true, fileMustExist: true });
  try {
    const rows = database.prepare('SELECT claim_id, created FROM claims ORDER BY seq').all() as {
      claim_id: string;
      created: string;
    }[];
    return rows.map((row) => ({ claimId: row.claim_id, createdMs: Date.parse(row.created) }));
  } finally {
    database.close();
  }
}

function expectEveryClaimOnce(claimIds: readonly string[], claims: number): void {
  const expected = new Set(Array.from({ length: claims }, (_, claim) => expectedClaimId(claim)));
  const held = new Set(claimIds);
  expect(held.size, 'duplicate claim ids at the sandbox').toBe(claimIds.length);
  expect(
    claimIds.filter((id) => !expected.has(id)),
    'unexpected claims',
  ).toEqual([]);
  expect(
    [...expected].filter((id) => !held.has(id)),
    'missing claims',
  ).toEqual([]);
}

export async function importInWeather<Result>(
  setting: WeatherSetting,
  whileRunning: WhileRunning<Result>,
): Promise<WeatherRun<Result>> {
  const db = join(setting.dir, `${setting.name}.sandbox.db`);
  const sandbox = await startSandboxProcess(['--api-key', testApiKey, '--db', db, ...setting.sandboxFlags]);
  const proxy = await startCountingProxy(sandbox.url);
  const results = join(setting.dir, `${setting.name}.results.csv`);
  const job = startImportProcess(
    [
      cliBin,
      'import',
      setting.input,
      '--mapping',
      mapping,
      '--base-url',
      proxy.url,
      '--journal',
      join(setting.dir, `${setting.name}.journal.sqlite`),
      '--results',
      results,
      '--file-mode',
      'none',
      '--concurrency',
      String(setting.concurrency),
      '--log-level',
      'info',
    ],
    setting.deadlineMs,
  );
  const [exit, during] = await Promise.all([
    job.exit,
    whileRunning({ url: sandbox.url, db, ended: () => job.exited() !== undefined }),
  ]);
  expect(exit.signal, exit.stderr).toBeNull();
  expect(exit.code, exit.stderr).toBe(0);

  const claims = sandboxClaims(db);
  expectEveryClaimOnce(
    claims.map((claim) => claim.claimId),
    setting.claims,
  );
  const { rows } = await readResults(results);
  expect(
    rows.filter((row) => row.outcome !== 'created').map((row) => `${row.line} ${row.outcome} ${row.error_code}`),
  ).toEqual([]);
  expect(rows).toHaveLength(setting.claims);

  const throttling = loggedThrottling(exit.stderr);
  const byStatus = proxy.byStatus();
  // What the job says it saw is what the wire carried.
  expect(throttling.requests).toBe(proxy.total());
  expect(throttling.answered429).toBe(byStatus[429] ?? 0);
  expect(throttling.answered503).toBe(byStatus[503] ?? 0);
  expect(byStatus[201]).toBe(setting.claims);
  const summary = exit.stderr
    .split('\n')
    .filter((line) => !line.startsWith('{') && line.trim() !== '')
    .join('\n');
  return {
    byStatus,
    requests: proxy.total(),
    throttling,
    summary,
    pace: (1000 * setting.claims) / throttling.sendingMs,
    creationTimes: claims.map((claim) => claim.createdMs).sort((left, right) => left - right),
    during,
  };
}

/** Nothing to do while the import runs. */
export const justWait: WhileRunning<undefined> = async () => Promise.resolve(undefined);

/** Replaces a sandbox's faults while it runs (`POST /_sandbox/faults`, started with `--control`; the whole configuration). */
export async function setSandboxFaults(baseUrl: string, config: Readonly<Record<string, unknown>>): Promise<void> {
  const response = await fetch(new URL('/_sandbox/faults', baseUrl), {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${testApiKey}:`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(config),
  });
  const text = await response.text();
  expect(response.status, `POST /_sandbox/faults: ${text.slice(0, 300)}`).toBe(200);
}
