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

/**
 * The chaos suite's setting (issue 7): a folder of its own, a sandbox process failing 20% of
 * requests with 503 and dropping 5% of answers after committing, seeded, and the export to import.
 * Retry-After 0: the faults are as frequent as asked, without a second's wait after each 503.
 */
export async function faultyJob(seed: number, rows: readonly RowSpec[]): Promise<FaultyJob> {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-reliability-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  const db = join(dir, 'sandbox.db');
  const sandbox = await startSandboxProcess([
    '--api-key', testApiKey, '--db', db,
    '--fail-rate', '0.2', '--drop-after-commit-rate', '0.05', '--seed', String(seed),
    '--latency-ms', '0-10', '--retry-after-seconds', '0',
  ]);
  const input = join(dir, 'disputes.csv');
  await writeDisputesCsv(input, rows);
  return { dir, db, sandbox, input };
}
