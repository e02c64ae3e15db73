import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { hintFor } from '../../src/job-files/hints.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { csvOf, fraudRow, genericMapping, makeWorkspace, runCli, type Workspace } from '../import/e2e-fixtures.js';

/**
 * `report` and `review` read a withdraw journal or results like any other job's. A
 * real withdraw job, `--scope case` on part of a night, with every kind of line: a filed case
 * withdrawn, an unfiled one deleted, a case of a claim closed before, a case past
 * chargeback_filed (not_withdrawable), a case id the service never held (not_found); then its
 * results CSV (in its source's `;` dialect), the same results as a workbook, and its journal
 * reported alike.
 */

const env = { CLAIMS_API_KEY: sandboxKey };

/** The report after its heading and the journal's `service:` line, which a results file does not record. */
const body = (stdout: string) =>
  stdout
    .split('\n')
    .slice(1)
    .filter((line) => !line.startsWith('service: '))
    .join('\n');

/** A withdraw job against a sandbox: its list and results sources, journal and results CSV. */
async function withdrawJob(workspace: Workspace) {
  const { sandbox, client, request } = await startTestSandbox({ control: true });
  const service = ['--base-url', sandbox.url, '--log-level', 'silent'];
  // A and E filed (A with two cases), B filed, C not filed (the card still active: created only), D filed.
  const rows = [
    fraudRow('A', 'T1'),
    fraudRow('A', 'T2'),
    fraudRow('B', 'T1'),
    fraudRow('C', 'T1', { card_active: 'yes' }),
    fraudRow('D', 'T1'),
    fraudRow('E', 'T1'),
  ];
  const input = await workspace.write('night.csv', csvOf(rows));
  const imported = await runCli(
    [
      'import',
      input,
      '--mapping',
      genericMapping,
      '--evidence-dir',
      workspace.evidenceDir,
      '--journal',
      join(workspace.dir, 'night.journal.sqlite'),
      '--results',
      join(workspace.dir, 'night.results.csv'),
      ...service,
    ],
    env,
  );
  expect(imported.exitCode, imported.stderr).toBe(1);
  // D's claim closed before the job; B's case moved on by the network, past what a case withdrawal takes.
  expect((await client.claims.withdraw('CLM-D')).status).toBe(202);
  expect((await request('POST', '/_sandbox/cases/B-T1/advance', { status: 'chargeback_represented' })).status).toBe(
    200,
  );

  // A list from another system in `;`, and the night's results filtered to E's line.
  const list = await workspace.write(
    'refunds.csv',
    ['case_id;note', 'A-T1;refunded', 'B-T1;refunded', 'C-T1;refunded', 'D-T1;refunded', 'NOPE-T9;typo', ''].join('\n'),
  );
  const [header = '', ...lines] = (await readFile(join(workspace.dir, 'night.results.csv'), 'utf8'))
    .trimEnd()
    .split('\n');
  const picked = await workspace.write(
    'picked.results.csv',
    `${[header, ...lines.filter((line) => line.includes(',E-T1,'))].join('\n')}\n`,
  );
  const journal = join(workspace.dir, 'refunds.withdraw.journal.sqlite');
  const results = join(workspace.dir, 'refunds.withdraw.results.csv');
  const args = ['withdraw', list, picked, '--scope', 'case', '--delete-unfiled', '--journal', journal, ...service];
  const run = await runCli([...args, '--results', results], env);
  expect(run.exitCode, run.stderr).toBe(1);
  // Run again for a workbook: done, it sends nothing and writes the results from its journal.
  const workbook = join(workspace.dir, 'refunds.withdraw.results.xlsx');
  const again = await runCli([...args, '--results', workbook], env);
  expect(again.exitCode, again.stderr).toBe(1);
  return { journal, results, workbook };
}

/** The report's count of an outcome, from its `outcomes:` table. */
function countOf(stdout: string, outcome: string): number | undefined {
  const found = new RegExp(`^ {2}${outcome} +(\\d+)$`, 'm').exec(stdout);
  return found?.[1] === undefined ? undefined : Number(found[1]);
}

describe('bulk-disputes report on a withdraw job', () => {
  it(
    "reads its results CSV, the same results as .xlsx, and its journal: counts by outcome are the results file's lines, errors with their hints",
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const { journal, results, workbook } = await withdrawJob(workspace);
      const text = await readFile(results, 'utf8');
      // Written in the list's dialect: the report is not told it.
      expect(text.split('\n')[0]).toBe(
        'claim_key;claim_id;case_id;status_before;outcome;status_after;error_code;error_message;http_status;attempts',
      );
      const lines = parse<Record<string, string>>(text, { columns: true, delimiter: ';' });
      expect(lines.map((line) => [line.case_id, line.outcome, line.error_code])).toEqual([
        ['A-T1', 'withdrawn', ''],
        ['B-T1', 'refused', 'not_withdrawable'],
        ['C-T1', 'deleted', ''],
        ['D-T1', 'already_closed', ''],
        ['NOPE-T9', 'not_found', 'not_found'],
        ['E-T1', 'withdrawn', ''],
      ]);

      const fromCsv = await runCli(['report', results]);
      const fromWorkbook = await runCli(['report', workbook]);
      const fromJournal = await runCli(['report', journal]);
      for (const run of [fromCsv, fromWorkbook, fromJournal]) expect(run.exitCode, run.stderr).toBe(0);
      expect(fromCsv.stdout.split('\n')[0]).toBe(`report: ${results} (results CSV)`);
      expect(fromWorkbook.stdout.split('\n')[0]).toBe(`report: ${workbook} (results workbook)`);
      expect(fromJournal.stdout.split('\n')[0]).toBe(`report: ${journal} (journal)`);
      expect(fromJournal.stdout.split('\n')[1]).toMatch(/^service: http:\/\/127\.0\.0\.1:\d+ \(test key\)$/);
      expect(body(fromWorkbook.stdout)).toBe(body(fromCsv.stdout));
      expect(body(fromJournal.stdout)).toBe(body(fromCsv.stdout));

      // Every line counted once, by its outcome; claims as withdraw counts them (a listed case under its claim id).
      expect(fromCsv.stdout).toContain('rows 6, claims 5\n');
      const byOutcome = new Map<string, number>();
      for (const line of lines) byOutcome.set(line.outcome ?? '', (byOutcome.get(line.outcome ?? '') ?? 0) + 1);
      for (const [outcome, count] of byOutcome) expect(countOf(fromCsv.stdout, outcome), outcome).toBe(count);
      expect(fromCsv.stdout).toMatch(
        /outcomes:\n {2}withdrawn +2\n {2}deleted +1\n {2}already_closed +1\n {2}not_found +1\n {2}refused +1\n\n/,
      );
      for (const code of ['not_withdrawable', 'not_found'])
        expect(fromCsv.stdout).toContain(
          `  ${code} (1)\n    e.g.  ${lines.find((line) => line.error_code === code)?.error_message ?? ''}\n    fix:  ${hintFor(code)}\n`,
        );
      expect(hintFor('not_withdrawable')).toContain('withdraw the whole claim');

      // report --xlsx turns the results CSV into a workbook that reports the same.
      const converted = join(workspace.dir, 'converted.xlsx');
      expect((await runCli(['report', results, '--xlsx', converted])).exitCode).toBe(0);
      expect(body((await runCli(['report', converted])).stdout)).toBe(body(fromCsv.stdout));

      // The page lists the two refused lines with their hints.
      const page = join(workspace.dir, 'refunds.report.html');
      expect((await runCli(['report', workbook, '--html', page])).exitCode).toBe(0);
      const html = await readFile(page, 'utf8');
      expect(html).toContain('Failed rows (2)');
      expect(html).toContain(hintFor('not_found'));
    },
  );

  it(
    'a journal whose run stopped before a claim was settled: its cases are failed / not_finished, with the hint to run again',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const { journal } = await withdrawJob(workspace);
      // As a run killed before settling E would leave it: the target staged, no lines.
      const database = new Database(journal);
      const { seq } = database.prepare("SELECT seq FROM withdraw_lines WHERE case_id = 'E-T1'").get() as {
        seq: number;
      };
      database.prepare("UPDATE withdraw_targets SET step = 'staged' WHERE seq = ?").run(seq);
      database.prepare('DELETE FROM withdraw_lines WHERE seq = ?').run(seq);
      database.close();

      const report = await runCli(['report', journal]);
      expect(report.exitCode, report.stderr).toBe(0);
      expect(report.stdout).toContain('rows 6, claims 5\n');
      expect(countOf(report.stdout, 'withdrawn')).toBe(1);
      expect(countOf(report.stdout, 'failed')).toBe(1);
      expect(report.stdout).toContain(
        `  not_finished (1)\n    e.g.  the run stopped before this claim was settled; run the same command again\n    fix:  ${hintFor('not_finished')}\n`,
      );
      expect(hintFor('not_finished')).toContain('withdraw');

      // A report --xlsx of a withdraw journal says how to get its workbook; a workbook is one already.
      const asWorkbook = await runCli(['report', journal, '--xlsx', join(workspace.dir, 'out.xlsx')]);
      expect(asWorkbook.exitCode).toBe(2);
      expect(asWorkbook.stderr).toContain(
        '(a migrate-v1 or withdraw journal: run that command again with --results FILE.xlsx',
      );
    },
  );
});
