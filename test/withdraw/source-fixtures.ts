import { join } from 'node:path';
import { expect } from 'vitest';
import { readSources, type SourcesRead, type WithdrawTarget } from '../../src/withdraw/sources.js';
import { SourceError } from '../../src/job-files/read/source-error.js';
import { fraudClaim, sandboxKey, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import {
  csvOf,
  duplicateChargeRow,
  fraudRow,
  genericMapping,
  makeWorkspace,
  runCli,
  type GenericRow,
  type Workspace,
} from '../import/e2e-fixtures.js';

/**
 * Withdraw's sources made by the real import against a sandbox server: a night of six claims,
 * GOOD and LATE filed, DUP not filed (no receipt), WIN filed for T1 and not for T2 (past the
 * filing window), AMOUNT held back (mistyped), TAKEN refused (its id is another dispute's at the
 * service: claim_key_taken).
 */

export const night: readonly GenericRow[] = [
  fraudRow('GOOD', 'T1'),
  duplicateChargeRow('DUP', 'T1', ''),
  fraudRow('WIN', 'T1'),
  fraudRow('WIN', 'T2', { transaction_date: '2025-01-02' }),
  fraudRow('AMOUNT', 'T1', { disputed_amount: '84x.99' }),
  fraudRow('TAKEN', 'T1'),
  fraudRow('LATE', 'T1'),
];

/** The claims the night created, with the cases of each (case ids are `<dispute_ref>-<transaction_ref>`). */
export const created = [
  ['CLM-GOOD', 'GOOD', ['GOOD-T1']],
  ['CLM-DUP', 'DUP', ['DUP-T1']],
  ['CLM-WIN', 'WIN', ['WIN-T1', 'WIN-T2']],
  ['CLM-LATE', 'LATE', ['LATE-T1']],
] as const;

export interface Night {
  workspace: Workspace;
  testSandbox: TestSandbox;
}

/** A sandbox holding another dispute under TAKEN's claim id, and a workspace with the night as CSV. */
export async function nightSetup(): Promise<Night> {
  const workspace = await makeWorkspace();
  const testSandbox = await startTestSandbox();
  const other = await testSandbox.client.claims.createWithCases(fraudClaim('CLM-TAKEN'));
  expect(other.status).toBe(201);
  await workspace.write('night.csv', csvOf(night));
  return { workspace, testSandbox };
}

/** The night imported as a job of its own (`name`): its journal and results file. */
export async function importNight(
  { workspace, testSandbox }: Night,
  name: string,
  options: { results?: string; input?: string; mapping?: string; extra?: readonly string[] } = {},
) {
  const journal = join(workspace.dir, `${name}.journal.sqlite`);
  const results = join(workspace.dir, options.results ?? `${name}.results.csv`);
  const args = [
    'import',
    options.input ?? join(workspace.dir, 'night.csv'),
    '--mapping',
    options.mapping ?? genericMapping,
    '--evidence-dir',
    workspace.evidenceDir,
  ];
  const run = await runCli(
    [
      ...args,
      '--base-url',
      testSandbox.sandbox.url,
      '--journal',
      journal,
      '--results',
      results,
      '--log-level',
      'silent',
      ...(options.extra ?? []),
    ],
    { CLAIMS_API_KEY: sandboxKey },
  );
  expect([0, 1], run.stderr).toContain(run.exitCode);
  return { journal, results };
}

export const claimsOf = (read: SourcesRead) =>
  read.targets.map((target) => [target.claimId, target.claimKey, target.caseIds]);

export function importProof(target: WithdrawTarget | undefined) {
  if (target?.proof?.kind !== 'import')
    throw new Error(`expected an import proof, got ${JSON.stringify(target?.proof)}`);
  return target.proof.cases;
}

export async function refusal(files: readonly string[], options = {}): Promise<string> {
  const error = await readSources(files, options).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(SourceError);
  const message = (error as SourceError).message;
  expect(message).not.toContain('\n');
  return message;
}
