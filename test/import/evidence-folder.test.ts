import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import {
  csvOf,
  duplicateChargeRow,
  fraudRow,
  genericMapping,
  importArgs,
  makeWorkspace,
  readResults,
  runCli,
} from './e2e-fixtures.js';

/**
 * An evidence file not found names the folder searched and how it was chosen (docs/import.md,
 * "What happens, in order"): in the row's results line and in the summary a person reads at the end.
 */

const env = { CLAIMS_API_KEY: sandboxKey };
const onTerminal = ['--log-format', 'pretty'];

describe('import: an evidence file not found names the folder searched', () => {
  it('set by --evidence-dir: the folder, and that the flag set it', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write(
      'disputes.csv',
      csvOf([fraudRow('A', 'T1'), duplicateChargeRow('B', 'T1', 'ricevuta-001.pdf')]),
    );

    const run = await runCli([...onTerminal, ...importArgs(workspace, input, ['--base-url', sandbox.url])], env);

    expect(run.exitCode, run.stderr).toBe(1);
    const where = `${workspace.evidenceDir} (set by --evidence-dir)`;
    const results = await readResults(workspace.results);
    expect(results.rows.map((row) => [row.outcome, row.error_code, row.error_message])).toEqual([
      ['filed', '', ''],
      [
        'invalid',
        'evidence_not_found',
        `evidence ricevuta-001.pdf: expected an existing file in the evidence directory, got no such file in ${where}`,
      ],
    ]);
    const lines = run.stderr.split('\n');
    expect(lines).toContain('  evidence_not_found                  1');
    expect(lines).toContain(`evidence looked for in ${where}`);
  });

  it("the default, the export's folder: says so, and which flag sets another", async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write(
      'exports/disputes.csv',
      csvOf([duplicateChargeRow('B', 'T1', 'ricevuta-001.pdf')]),
    );
    const args = [
      'import',
      input,
      '--mapping',
      genericMapping,
      '--results',
      workspace.results,
      '--journal',
      workspace.journal,
    ];

    const run = await runCli([...onTerminal, ...args, '--base-url', sandbox.url], env);

    expect(run.exitCode, run.stderr).toBe(1);
    const where = `${dirname(input)} (the default, the export's folder; set another with --evidence-dir)`;
    const [row] = (await readResults(workspace.results)).rows;
    expect(row?.error_message).toBe(
      `evidence ricevuta-001.pdf: expected an existing file in the evidence directory, got no such file in ${where}`,
    );
    expect(run.stderr.split('\n')).toContain(`evidence looked for in ${where}`);
  });

  it('a run whose evidence is all found does not name the folder', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1')]));

    const run = await runCli([...onTerminal, ...importArgs(workspace, input, ['--base-url', sandbox.url])], env);

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('evidence looked for in');
  });
});
