import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  csvOf,
  fraudRow,
  genericMapping,
  makeWorkspace,
  runBin,
  type CliRun,
  type Workspace,
} from '../import/e2e-fixtures.js';

export { find, parseSamples, startPushgateway, type Sample } from '../helpers/pushgateway.js';

/** A workspace with `disputes.csv` (`input`, else 6 rows, 4 claims, filed as they are). */
export async function disputesWorkspace(input?: string): Promise<Workspace> {
  const workspace = await makeWorkspace();
  await workspace.write(
    'disputes.csv',
    input ??
      csvOf([
        fraudRow('A', 'T1'),
        fraudRow('B', 'T1'),
        fraudRow('A', 'T2'),
        fraudRow('C', 'T1'),
        fraudRow('D', 'T1'),
        fraudRow('D', 'T2'),
      ]),
  );
  return workspace;
}

/** The built CLI's import of `disputes.csv` into the embedded sandbox of the workspace, as the nightly job runs it. */
export async function importIn(
  workspace: Workspace,
  extra: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<CliRun & { ms: number }> {
  const started = Date.now();
  const run = await runBin(
    [
      'import',
      'disputes.csv',
      '--mapping',
      genericMapping,
      '--evidence-dir',
      'evidence',
      '--log-level',
      'warn',
      ...extra,
    ],
    env,
    { cwd: workspace.dir },
  );
  return { ...run, ms: Date.now() - started };
}

/** The results file's lines, but for the columns a run makes anew (none here: same ids, same outcomes). */
export async function resultsOf(workspace: Workspace, name = 'disputes.sandbox.results.csv'): Promise<string> {
  return readFile(join(workspace.dir, name), 'utf8');
}
