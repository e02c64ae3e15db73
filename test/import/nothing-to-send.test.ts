import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { countIn, csvOf, fraudRow, importArgs, makeWorkspace, runCli } from './e2e-fixtures.js';

/**
 * A re-run of a finished import sends nothing, and its summary says so first, and why: every row
 * settled by an earlier run of the journal, named by when it started, and where to read the rows
 * not ok (docs/import.md, "Resume"). Read as a person reads the terminal, and as the JSON line.
 */

const env = { CLAIMS_API_KEY: sandboxKey };
const onTerminal = ['--log-format', 'pretty'];

function settledByRunAt(journal: string): string | undefined {
  const database = new Database(journal, { readonly: true });
  try {
    const row = database.prepare("SELECT value FROM meta WHERE key = 'settled_by_run_at'").get() as
      { value: string } | undefined;
    return row?.value;
  } finally {
    database.close();
  }
}

const asRunTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

describe('import: a re-run with nothing to send says so', () => {
  it('names the run that settled the rows, the rows not ok and the results file; the first run does not', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const rows = [fraudRow('A', 'T1'), fraudRow('B', 'T1'), fraudRow('X', 'T1', { disputed_amount: 'x' })];
    const input = await workspace.write('disputes.csv', csvOf(rows));
    const args = [...onTerminal, ...importArgs(workspace, input, ['--base-url', sandbox.url])];

    const first = await runCli(args, env);
    expect(first.exitCode, first.stderr).toBe(1);
    expect(first.stderr).not.toContain('nothing to send');
    const settledAt = settledByRunAt(workspace.journal);
    expect(settledAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/u);

    const again = await runCli(args, env);

    expect(again.exitCode, again.stderr).toBe(1);
    const summary = again.stderr.split('\n').filter((line) => !line.startsWith('['));
    expect(summary.slice(0, 2)).toEqual([
      `import into ${sandbox.url} (test key) finished: 3 rows, 3 claims`,
      `nothing to send: all 3 rows were settled by the run of ${asRunTime(settledAt ?? '')} in this journal; ` +
        `1 invalid: see ${workspace.results} for why (fix those rows and feed that file back)`,
    ]);
    expect(countIn(sandbox, 'claims')).toBe(2);
    // The run that sent nothing is not the one that settled them: the date stays the first run's.
    expect(settledByRunAt(workspace.journal)).toBe(settledAt);

    const json = await runCli(
      ['--log-format', 'json', ...importArgs(workspace, input, ['--base-url', sandbox.url])],
      env,
    );
    const finished = json.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; nothingToSend?: unknown })
      .find((line) => line.msg === 'import finished');
    expect(finished?.nothingToSend).toEqual({ settledByRunAt: settledAt });
  });

  it('every row ok; a journal of an earlier version, which did not record when, says an earlier run', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1')]));
    const args = [...onTerminal, ...importArgs(workspace, input, ['--base-url', sandbox.url])];
    expect((await runCli(args, env)).exitCode).toBe(0);

    const again = await runCli(args, env);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(
      /^nothing to send: its one row was settled by the run of \d{4}-\d\d-\d\d \d\d:\d\d UTC in this journal, and it is ok$/mu,
    );

    const database = new Database(workspace.journal);
    database.prepare("DELETE FROM meta WHERE key = 'settled_by_run_at'").run();
    database.close();
    const older = await runCli(args, env);
    expect(older.exitCode, older.stderr).toBe(0);
    expect(older.stderr).toMatch(
      /^nothing to send: its one row was settled by an earlier run in this journal, and it is ok$/mu,
    );
  });
});
