import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { inShard } from '../../src/job-files/claims/ids.js';
import {
  countIn,
  csvOf,
  editedMapping,
  fraudRow,
  genericColumns,
  importArgs,
  makeWorkspace,
  readPayloads,
  readResults,
  resultsCsv,
  runCli,
  type ResultRow,
  type Workspace,
} from './e2e-fixtures.js';

/**
 * Two rows of one run that describe the same dispute are never two cases (docs/import.md,
 * "Duplicates"): identical rows, or the same ARN and amount. A real import into the sandbox on
 * loopback; the later rows are `duplicate`, ok for the exit code, and nothing of them is sent, on
 * a re-run, in shards, or fed back.
 */

const env = { CLAIMS_API_KEY: sandboxKey };

const outcomesOf = (rows: readonly ResultRow[]) =>
  rows.map((row) => [row.line, row.outcome, row.error_code, row.error_message]);

/** A second dispute of the same transaction: another disputed amount, the same ARN and transaction amount. */
function sameTransaction(row: ReturnType<typeof fraudRow>) {
  return { ...row, disputed_amount: '400.00' };
}

async function importInto(workspace: Workspace, input: string, url: string, extra: string[] = [], mapping?: string) {
  return runCli(
    importArgs(workspace, input, ['--base-url', url, '--payloads', workspace.payloads, ...extra], mapping),
    env,
  );
}

describe('import: the same dispute twice', () => {
  it('three identical rows make one case and two duplicate lines; a re-run sends nothing', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const repeated = fraudRow('D-1', 'T1');
    const other = fraudRow('D-2', 'T1');
    const input = await workspace.write('disputes.csv', csvOf([repeated, repeated, other, repeated]));

    const run = await importInto(workspace, input, sandbox.url);

    // Exit 0: the duplicates are ok, their dispute's outcome is on line 2.
    expect(run.exitCode, run.stderr).toBe(0);
    const results = await readResults(workspace.results);
    expect(outcomesOf(results.rows)).toEqual([
      ['2', 'filed', '', ''],
      ['3', 'duplicate', 'duplicate_row', 'the same dispute as line 2 (an identical row)'],
      ['4', 'filed', '', ''],
      ['5', 'duplicate', 'duplicate_row', 'the same dispute as line 2 (an identical row)'],
    ]);
    // On no claim: a duplicate line names none.
    expect(results.rows.filter((row) => row.outcome === 'duplicate').map((row) => [row.claim_id, row.case_id])).toEqual(
      [
        ['', ''],
        ['', ''],
      ],
    );
    expect(countIn(sandbox, 'claims')).toBe(2);
    expect(countIn(sandbox, 'cases')).toBe(2);
    const payloads = await readPayloads(workspace.payloads);
    expect(payloads.map((payload) => [payload.claim_id, payload.cases.length])).toEqual([
      ['CLM-D-1', 1],
      ['CLM-D-2', 1],
    ]);
    expect(run.stderr).toContain(
      'rows set aside, nothing of them sent: 2 duplicate of an earlier line (error_message says which rule or line)',
    );

    const again = await importInto(workspace, input, sandbox.url);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(outcomesOf((await readResults(workspace.results)).rows)).toEqual(outcomesOf(results.rows));
    expect(countIn(sandbox, 'cases')).toBe(2);
  });

  it('the same ARN and amount on another line is a duplicate, unless the mapping says a transaction carries several disputes', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const first = fraudRow('D-1', 'T1');
    const input = await workspace.write(
      'disputes.csv',
      csvOf([first, sameTransaction({ ...first, transaction_ref: 'T2' })]),
    );

    const run = await importInto(workspace, input, sandbox.url, ['--dry-run']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(outcomesOf((await readResults(workspace.results)).rows)).toEqual([
      ['2', 'valid', '', ''],
      ['3', 'duplicate', 'duplicate_row', 'the same dispute as line 2 (the same ARN and amount)'],
    ]);

    const several = await editedMapping(workspace, (mapping) => {
      // The edit's type holds sections of sections; `rows` is one of flags.
      (mapping as Record<string, unknown>).rows = { several_disputes_per_transaction: true };
    });
    const apart = await makeWorkspace();
    const sent = await importInto(apart, input, sandbox.url, [], several);
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(outcomesOf((await readResults(apart.results)).rows)).toEqual([
      ['2', 'filed', '', ''],
      ['3', 'filed', '', ''],
    ]);
    expect(countIn(sandbox, 'cases')).toBe(2);
  });

  it('a results file fed back keeps its duplicates and sends nothing twice', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const repeated = fraudRow('D-1', 'T1');
    const input = await workspace.write('disputes.csv', csvOf([repeated, repeated, repeated]));
    expect((await importInto(workspace, input, sandbox.url)).exitCode).toBe(0);
    const results = await readResults(workspace.results);
    const fed = await workspace.write('fixed.csv', resultsCsv(results, results.rows));

    const again = await runCli(
      [
        'import',
        fed,
        '--mapping',
        join(process.cwd(), 'mappings/generic.yaml'),
        '--results',
        join(workspace.dir, 'fixed.results.csv'),
        '--journal',
        join(workspace.dir, 'fixed.journal.sqlite'),
        '--evidence-dir',
        workspace.evidenceDir,
        '--base-url',
        sandbox.url,
      ],
      env,
    );

    expect(again.exitCode, again.stderr).toBe(0);
    const fixed = await readResults(join(workspace.dir, 'fixed.results.csv'));
    expect(outcomesOf(fixed.rows)).toEqual([
      ['2', 'filed', '', ''],
      ['3', 'duplicate', 'duplicate_row', 'the same dispute as line 2 (an identical row)'],
      ['4', 'duplicate', 'duplicate_row', 'the same dispute as line 2 (an identical row)'],
    ]);
    expect(countIn(sandbox, 'claims')).toBe(1);
    expect(countIn(sandbox, 'cases')).toBe(1);
  });

  it('in shards, the dispute is the shard of its first line: merged, one case and one duplicate', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    // Two claim keys of different shards, one transaction: its first line decides, whichever shard.
    const refs = ['S-1', 'S-2', 'S-3', 'S-4', 'S-5', 'S-6'];
    const inFirst = refs.find((ref) => inShard(JSON.stringify([ref]), { index: 1, count: 2 })) ?? '';
    const inSecond = refs.find((ref) => inShard(JSON.stringify([ref]), { index: 2, count: 2 })) ?? '';
    const first = fraudRow(inSecond, 'T1');
    const input = await workspace.write(
      'disputes.csv',
      csvOf([first, sameTransaction({ ...first, dispute_ref: inFirst })]),
    );

    const lines: ResultRow[] = [];
    for (const shard of ['1/2', '2/2']) {
      const name = shard.replace('/', '-of-');
      const run = await runCli(
        [
          'import',
          input,
          '--mapping',
          join(process.cwd(), 'mappings/generic.yaml'),
          '--results',
          join(workspace.dir, `${name}.results.csv`),
          '--journal',
          join(workspace.dir, `${name}.journal.sqlite`),
          '--evidence-dir',
          workspace.evidenceDir,
          '--base-url',
          sandbox.url,
          '--shard',
          shard,
        ],
        env,
      );
      expect(run.exitCode, run.stderr).toBe(0);
      lines.push(...(await readResults(join(workspace.dir, `${name}.results.csv`))).rows);
    }

    expect(outcomesOf(lines.sort((left, right) => Number(left.line) - Number(right.line)))).toEqual([
      ['2', 'filed', '', ''],
      ['3', 'duplicate', 'duplicate_row', 'the same dispute as line 2 (the same ARN and amount)'],
    ]);
    expect(countIn(sandbox, 'cases')).toBe(1);
  });
});

describe('import: rows not for import', () => {
  const columnsWithType = ['Record Type', ...genericColumns];

  it('rows.only imports the rows it names; the others are skipped, ok, naming the rule, nothing of them sent', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const detail = { 'Record Type': 'DETAIL', ...fraudRow('D-1', 'T1') };
    // A summary record fits no field: skipped before it is mapped, it is not invalid.
    const summary = { 'Record Type': 'SUMMARY', dispute_ref: 'TOTAL', transaction_amount: 'n/a' };
    const lower = { 'Record Type': ' detail ', ...fraudRow('D-2', 'T1') };
    const input = await workspace.write(
      'disputes.csv',
      csvOf([detail, summary, lower, { 'Record Type': '', dispute_ref: 'X' }], { columns: columnsWithType }),
    );
    const mapping = await editedMapping(workspace, (edited) => {
      edited.rows = { only: { 'Record Type': ['DETAIL'] } };
    });

    const run = await importInto(workspace, input, sandbox.url, [], mapping);

    expect(run.exitCode, run.stderr).toBe(0);
    expect(outcomesOf((await readResults(workspace.results)).rows)).toEqual([
      ['2', 'filed', '', ''],
      ['3', 'skipped', 'row_skipped', 'rows.only: "Record Type" is "SUMMARY", expected one of "DETAIL"'],
      ['4', 'filed', '', ''],
      ['5', 'skipped', 'row_skipped', 'rows.only: "Record Type" is blank, expected one of "DETAIL"'],
    ]);
    expect(countIn(sandbox, 'claims')).toBe(2);
    expect(run.stderr).toContain("rows set aside, nothing of them sent: 2 skipped by the mapping's rows.only");
    expect(run.stderr).not.toContain('top errors');
  });

  it('a filter column the header lacks stops before anything is staged (HEADER_MISMATCH)', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('D-1', 'T1')]));
    const mapping = await editedMapping(workspace, (edited) => {
      edited.rows = { only: { 'Dispute Category Code': ['RECD'] } };
    });

    const run = await importInto(workspace, input, sandbox.url, [], mapping);

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('HEADER_MISMATCH');
    expect(run.stderr).toContain(
      String.raw`the mapping's column \"Dispute Category Code\" (rows.only.Dispute Category Code) is not in the export's header`,
    );
    expect(countIn(sandbox, 'claims')).toBe(0);
  });

  it('a row still invalid among duplicates keeps the exit code 1', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const bad = fraudRow('D-1', 'T1', { disputed_amount: 'x' });
    const input = await workspace.write('disputes.csv', csvOf([bad, bad]));
    const run = await importInto(workspace, input, sandbox.url);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(outcomesOf((await readResults(workspace.results)).rows).map((row) => row.slice(0, 3))).toEqual([
      ['2', 'invalid', 'amount_format'],
      ['3', 'duplicate', 'duplicate_row'],
    ]);
  });
});
