import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import {
  countIn,
  csvOf,
  editedMapping,
  fraudRow,
  importArgs,
  makeWorkspace,
  readResults,
  runCli,
} from './e2e-fixtures.js';

/**
 * A bank's report as it comes (docs/mappings.md, "Reports with title lines, trailers and
 * sections"): title lines before the header, a trailer and the blank lines its generator pads the
 * file with after the rows. Through `mapping guess`, `mapping check --input`, a dry run and a real
 * import into a sandbox on a loopback port: every row of the table once in the results, no title
 * or trailer line among them, and the lines left out counted by why.
 */

const env = { CLAIMS_API_KEY: sandboxKey };
const pretty = ['--log-format', 'pretty'];

/** The generic layout's rows wrapped as a processor writes its report: CRLF, two title lines, a trailer, blank lines. */
function reportOf(rows: Parameters<typeof csvOf>[0]): string {
  const table = csvOf(rows, { recordDelimiter: 'windows' });
  return [
    'EntityId=9100231,Frequency=daily\r\n',
    'EntityId=9100231,ReportTypeName=DisputeDetails,FromDate=2026-11-01,ToDate=2026-11-30\r\n',
    table,
    'EntityId=9100231,Frequency=daily\r\n',
    '\r\n'.repeat(25),
  ].join('');
}

const layout = { header: { starts_with: 'dispute_ref' }, trailer: { starts_with: 'EntityId=' } };

describe('import: a report with title lines and a trailer', () => {
  it('guess finds the layout; check, the dry run and the import read only the table, and a re-run resumes', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write(
      'DisputeDetails.csv',
      reportOf([fraudRow('A', 'T1'), fraudRow('B', 'T2'), fraudRow('B', 'T3')]),
    );

    // The first line is not the header: guess says so and writes the layout into the draft.
    const draft = `${workspace.dir}/draft.yaml`;
    const guessed = await runCli(['mapping', 'guess', input, '--out', draft]);
    expect(guessed.exitCode, guessed.stderr).toBe(0);
    expect(guessed.stderr).toContain(
      'the first line is not the header: line 3 is, after 2 title lines (report.header in the draft; they are never rows)',
    );
    expect(guessed.stderr).toContain('the rows end before a trailer, line 7 "EntityId=9100231,Frequency=daily"');
    const drafted = parseYaml(await readFile(draft, 'utf8')) as { report?: unknown; claim: { key: string[] } };
    expect(drafted.report).toEqual(layout);
    expect(drafted.claim.key).toEqual(['dispute_ref']);

    // Without the layout the title line is taken for the header: the check says nothing fits.
    const plain = await runCli(['mapping', 'check', await editedMapping(workspace, () => undefined), '--input', input]);
    expect(plain.exitCode).toBe(2);
    expect(plain.stderr).toContain('HEADER_MISMATCH');

    const mapping = await editedMapping(workspace, (edited) => {
      edited.report = layout;
    });
    const checked = await runCli(['mapping', 'check', mapping, '--input', input]);
    expect(checked.exitCode, checked.stderr).toBe(0);

    const dryRun = await runCli([...pretty, ...importArgs(workspace, input, ['--dry-run'], mapping)], env);
    expect(dryRun.exitCode, dryRun.stderr).toBe(0);
    expect(dryRun.stderr).toContain(
      'lines outside the table, not rows: 28 (2 before the header, 1 trailer line, 25 blank lines)',
    );
    const checkedRows = (await readResults(workspace.results)).rows;
    expect(checkedRows.map((row) => [row.line, row.outcome])).toEqual([
      ['4', 'valid'],
      ['5', 'valid'],
      ['6', 'valid'],
    ]);

    // The results fed back through the same mapping: read as they are, their own header first.
    const fedBack = await workspace.write('fix.results.csv', await readFile(workspace.results));
    const fixRun = await runCli(
      [
        ...pretty,
        ...importArgs(workspace, fedBack, ['--dry-run', '--journal', `${workspace.dir}/fix.sqlite`], mapping),
      ],
      env,
    );
    expect(fixRun.exitCode, fixRun.stderr).toBe(0);
    expect(fixRun.stderr).toContain('dry run finished: 3 rows, 2 claims');
    expect(fixRun.stderr).not.toContain('lines outside the table');

    const args = importArgs(
      workspace,
      input,
      ['--base-url', sandbox.url, '--journal', `${workspace.dir}/real.sqlite`],
      mapping,
    );
    const run = await runCli([...pretty, ...args], env);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('lines outside the table, not rows: 28');
    const results = await readResults(workspace.results);
    expect(results.rows.map((row) => [row.line, row.outcome, row.dispute_ref])).toEqual([
      ['4', 'filed', 'A'],
      ['5', 'filed', 'B'],
      ['6', 'filed', 'B'],
    ]);
    expect(results.rows.some((row) => Object.values(row).some((cell) => cell?.startsWith('EntityId=')))).toBe(false);
    expect(countIn(sandbox, 'claims')).toBe(2);
    expect(countIn(sandbox, 'cases')).toBe(3);

    // The same command again: nothing sent twice, the same results, the lines outside told as before.
    const again = await runCli([...pretty, ...args], env);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('nothing to send');
    expect(again.stderr).toContain('lines outside the table, not rows: 28');
    expect((await readResults(workspace.results)).rows).toEqual(results.rows);
    expect(countIn(sandbox, 'cases')).toBe(3);
  });

  it('a header the layout does not find stops before anything is staged, naming the setting', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('DisputeDetails.csv', reportOf([fraudRow('A', 'T1')]));
    const mapping = await editedMapping(workspace, (edited) => {
      edited.report = { header: { starts_with: 'Dispute Reference' } };
    });
    const run = await runCli([...pretty, ...importArgs(workspace, input, ['--dry-run'], mapping)], env);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      'expected a line starting with "Dispute Reference" (report.header.starts_with), got none in the first',
    );
  });
});
