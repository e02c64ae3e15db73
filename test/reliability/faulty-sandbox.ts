import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { testApiKey } from '../helpers/client.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox-process.js';
import { writeDisputesCsv, type RowSpec } from '../import/generate.js';

export interface FaultyJob {
  dir: string;
  /** The sandbox's data file, readable beside it (WAL). */
  db: string;
  sandbox: SandboxProcess;
  /** The generated export of `rows`. */
  input: string;
}

/** The chaos suite's faults: 20% of requests 503, 5% of answers dropped after the commit, 0-10 ms. */
export const chaosFaults: readonly string[] = [
  '--fail-rate',
  '0.2',
  '--drop-after-commit-rate',
  '0.05',
  '--latency-ms',
  '0-10',
  '--retry-after-seconds',
  '0',
];

/**
 * The chaos suite's setting: a folder of its own, a sandbox process failing 20% of
 * requests with 503 and dropping 5% of answers after committing, seeded, and the export to import.
 * Retry-After 0: the faults are as frequent as asked, without a second's wait after each 503.
 * `faults`: other sandbox flags in their place (a service at its capacity, say).
 */
export async function faultyJob(
  seed: number,
  rows: readonly RowSpec[],
  faults: readonly string[] = chaosFaults,
): Promise<FaultyJob> {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-reliability-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  const db = join(dir, 'sandbox.db');
  const sandbox = await startSandboxProcess(['--api-key', testApiKey, '--db', db, '--seed', String(seed), ...faults]);
  const input = join(dir, 'disputes.csv');
  await writeDisputesCsv(input, rows);
  return { dir, db, sandbox, input };
}
