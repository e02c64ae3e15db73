import { readFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { messageRemoved } from '../../src/job-files/thinning/kept-fields.js';
import { cbnotFile } from '../helpers/fixed-width-files.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import {
  countIn,
  csvOf,
  editedMapping,
  fraudRow,
  genericColumns,
  importArgs,
  makeWorkspace,
  readResults,
  repoRoot,
  runCli,
  type ResultsFile,
  type Workspace,
} from './e2e-fixtures.js';
import { metaIn, sourcesIn, thinJournal, thinnedAt } from './thin-journal.js';

/**
 * The same import run again on a journal `prune` thinned (docs/import.md, "Resume"): nothing to
 * send, and the results as before, every row once, their source cells read again from the input
 * and masked as staging masks them, for every kind of input. Real imports into a sandbox on a
 * loopback port; the journal thinned by prune's own functions.
 */

const env = { CLAIMS_API_KEY: sandboxKey };
const pretty = ['--log-format', 'pretty'];
const cardNumber = '4111111111111111';

/** The results as before thinning, but for messages prune replaced because they quoted their row. */
function expectSameResults(before: ResultsFile, after: ResultsFile): void {
  expect(after.header).toEqual(before.header);
  expect(after.rows).toHaveLength(before.rows.length);
  after.rows.forEach((row, position) => {
    const was: Partial<Record<string, string>> = before.rows[position] ?? {};
    expect({ ...row, error_message: '' }).toEqual({ ...was, error_message: '' });
    expect([was.error_message, messageRemoved]).toContain(row.error_message);
  });
}

/** An import, its journal thinned, and the same import again: its exit code, stderr and both results. */
async function importThinAndRerun(
  workspace: Workspace,
  args: string[],
  firstExit: number,
): Promise<{ before: ResultsFile; after: ResultsFile; beforeText: string; stderr: string }> {
  const first = await runCli([...pretty, ...args], env);
  expect(first.exitCode, first.stderr).toBe(firstExit);
  const beforeText = await readFile(workspace.results, 'utf8');
  const before = await readResults(workspace.results);
  thinJournal(workspace.journal);
  expect(sourcesIn(workspace.journal).every((source) => source === '[]')).toBe(true);
  const again = await runCli([...pretty, ...args], env);
  expect(again.exitCode, again.stderr).toBe(firstExit);
  return { before, after: await readResults(workspace.results), beforeText, stderr: again.stderr };
}

describe('import: the same run again on a thinned journal', () => {
  it('sends nothing and writes the results as before, the cells read again from the CSV and masked', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const rows = [
      fraudRow('A', 'T1', { cardholder_statement: `card ${cardNumber} was stolen` }),
      fraudRow('A', 'T2'),
      fraudRow('B', 'T1', { cardholder_email: 'not-an-address' }),
      fraudRow('C', 'T1', { dispute_date: 'Thursdayish' }),
      fraudRow('D', 'T1', { card_active: 'yes' }),
    ];
    // A record of the wrong width: read as an error, its cells kept as read.
    const text = `${csvOf(rows)}E,T1,FR\n`;
    const input = await workspace.write('disputes.csv', text);
    const args = importArgs(workspace, input, ['--base-url', sandbox.url]);
    const claims = () => countIn(sandbox, 'claims');

    const first = await runCli([...pretty, ...args], env);
    expect(first.exitCode, first.stderr).toBe(1);
    const beforeText = await readFile(workspace.results, 'utf8');
    const before = await readResults(workspace.results);
    const claimsBefore = claims();
    thinJournal(workspace.journal);

    const again = await runCli([...pretty, ...args], env);

    expect(again.exitCode, again.stderr).toBe(1);
    const after = await readResults(workspace.results);
    expectSameResults(before, after);
    expect(after.rows.map((row) => row.line)).toEqual(['2', '3', '4', '5', '6', '7']);
    // The card number masked as staging masked it; the record of the wrong width with its three cells.
    expect(after.text).not.toContain(cardNumber);
    expect(after.rows[0]?.cardholder_statement).toBe(before.rows[0]?.cardholder_statement);
    expect(after.rows[5]?.dispute_ref).toBe('E');
    // A message that quoted its row reads as prune left it; the others as before, so the file is the same bytes but for those.
    const removed = after.rows.filter((row) => row.error_message === messageRemoved);
    expect(removed.length).toBeGreaterThan(0);
    // Every other line the same bytes as before (no cell here spans lines), the header too.
    const beforeLines = beforeText.split('\n');
    const afterLines = (await readFile(workspace.results, 'utf8')).split('\n');
    expect(afterLines).toHaveLength(beforeLines.length);
    afterLines.forEach((line, position) => {
      if (after.rows[position - 1]?.error_message !== messageRemoved) expect(line).toBe(beforeLines[position]);
    });
    expect(again.stderr).toContain('nothing to send');
    expect(again.stderr).toContain(
      "the journal was thinned by prune on 2031-04-05: the results' source cells were read again from the input",
    );
    expect(claims()).toBe(claimsBefore);
    // Read again, not put back: the journal stays thinned.
    expect(sourcesIn(workspace.journal).every((source) => source === '[]')).toBe(true);
    expect(JSON.parse(metaIn(workspace.journal, 'thinned') ?? '{}')).toMatchObject({ at: thinnedAt });
  });

  it(
    'reads a report layout, a fixed-width file, a workbook and a results file fed back again alike',
    { timeout: 60_000 },
    async () => {
      const { sandbox } = await startTestSandbox();

      // A report: title lines, CRLF, a trailer and blank lines.
      const report = await makeWorkspace();
      const reportMapping = await editedMapping(report, (edited) => {
        edited.report = { header: { starts_with: 'dispute_ref' }, trailer: { starts_with: 'EntityId=' } };
      });
      const table = csvOf([fraudRow('R1', 'T1'), fraudRow('R2', 'T1', { disputed_amount: 'lots' })], {
        recordDelimiter: 'windows',
      });
      const reportInput = await report.write(
        'report.csv',
        `EntityId=1,Frequency=daily\r\n${table}EntityId=1\r\n\r\n\r\n`,
      );
      const fromReport = await importThinAndRerun(
        report,
        importArgs(report, reportInput, ['--base-url', sandbox.url], reportMapping),
        1,
      );
      expectSameResults(fromReport.before, fromReport.after);
      expect(fromReport.after.text).toContain('\r\n');
      expect(fromReport.after.rows.map((row) => row.dispute_ref)).toEqual(['R1', 'R2']);

      // A fixed-width CBNOT file: each detail record a row.
      const fixed = await makeWorkspace();
      const fixedInput = await fixed.write('cbnot.txt', cbnotFile({ blocks: [2, 1] }));
      const fromFixed = await importThinAndRerun(
        fixed,
        importArgs(fixed, fixedInput, ['--base-url', sandbox.url], `${repoRoot}mappings/amex-cbnot.yaml`),
        1,
      );
      expectSameResults(fromFixed.before, fromFixed.after);
      expect(fromFixed.after.rows.map((row) => row.case_number)).toEqual(['C2604100000', 'C2604100001', 'C2604100002']);

      // A workbook: its cells as text, the card number masked.
      const book = await makeWorkspace();
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Disputes');
      sheet.addRow([...genericColumns]);
      for (const row of [fraudRow('W1', 'T1', { cardholder_statement: `used ${cardNumber}` }), fraudRow('W2', 'T1')])
        sheet.addRow(genericColumns.map((column) => row[column] ?? ''));
      const bookInput = `${book.dir}/export.xlsx`;
      await workbook.xlsx.writeFile(bookInput);
      const fromBook = await importThinAndRerun(book, importArgs(book, bookInput, ['--base-url', sandbox.url]), 0);
      expectSameResults(fromBook.before, fromBook.after);
      expect(fromBook.after.text).not.toContain(cardNumber);
      expect(fromBook.after.rows.map((row) => row.dispute_ref)).toEqual(['W1', 'W2']);

      // A results file fixed and fed back, as a job of its own: its source columns only, restored.
      const fed = await makeWorkspace();
      const fixedResults = fromReport.beforeText
        .replace(/\r\n/gu, '\n')
        .replace(',lots,', ',12.50,')
        .replace(/,'=/gu, ',=');
      const fedInput = await fed.write('fixed.results.csv', fixedResults);
      const fromFed = await importThinAndRerun(fed, importArgs(fed, fedInput, ['--base-url', sandbox.url]), 0);
      expectSameResults(fromFed.before, fromFed.after);
      expect(fromFed.after.rows.map((row) => [row.dispute_ref, row.disputed_amount])).toEqual([
        ['R1', '849.99'],
        ['R2', '12.50'],
      ]);
    },
  );

  it('stops with exit 2 when a row read again does not give the digest it was staged with, the results kept', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1'), fraudRow('B', 'T1')]));
    const args = importArgs(workspace, input, ['--base-url', sandbox.url]);
    expect((await runCli(args, env)).exitCode).toBe(0);
    const results = await readFile(workspace.results, 'utf8');
    thinJournal(workspace.journal);
    // What other bytes would stage as: the second row's digest is not its cells'.
    const database = new Database(workspace.journal);
    database.prepare("UPDATE rows SET same_row = 'not-the-digest-of-it' WHERE line = 3").run();
    database.close();

    const again = await runCli(args, env);

    expect(again.exitCode, again.stderr).toBe(2);
    expect(again.stderr).toContain('JOURNAL_MISMATCH');
    expect(again.stderr).toContain(`expected line 3 of ${input} to read as the cells the journal staged`);
    expect(again.stderr).toContain('--restart');
    expect(again.stderr).not.toMatch(/\n\s+at /u);
    expect(await readFile(workspace.results, 'utf8')).toBe(results);
  });

  it('refuses another service and another input as before', async () => {
    const { sandbox } = await startTestSandbox();
    const { sandbox: other } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1')]));
    expect((await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env)).exitCode).toBe(0);
    thinJournal(workspace.journal);

    const elsewhere = await runCli(importArgs(workspace, input, ['--base-url', other.url]), env);
    expect(elsewhere.exitCode, elsewhere.stderr).toBe(2);
    expect(elsewhere.stderr).toContain('SERVICE_MISMATCH');
    expect(countIn(other, 'claims')).toBe(0);

    const otherInput = await workspace.write('other.csv', csvOf([fraudRow('Z', 'T9')]));
    const another = await runCli(importArgs(workspace, otherInput, ['--base-url', sandbox.url]), env);
    expect(another.exitCode, another.stderr).toBe(2);
    expect(another.stderr).toContain('JOURNAL_MISMATCH');
    expect(countIn(sandbox, 'claims')).toBe(1);
  });

  it('with --restart stages afresh: the thinned mark gone, the cells staged again, no claim sent twice', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1'), fraudRow('B', 'T1')]));
    const args = importArgs(workspace, input, ['--base-url', sandbox.url]);
    expect((await runCli(args, env)).exitCode).toBe(0);
    const before = await readResults(workspace.results);
    thinJournal(workspace.journal);

    const restarted = await runCli([...args, '--restart'], env);

    expect(restarted.exitCode, restarted.stderr).toBe(0);
    expect(metaIn(workspace.journal, 'thinned')).toBeUndefined();
    expect(sourcesIn(workspace.journal).every((source) => source !== '[]')).toBe(true);
    expect(restarted.stderr).not.toContain('thinned by prune');
    const after = await readResults(workspace.results);
    expect(after.rows.map((row) => [row.claim_id, row.outcome])).toEqual(
      before.rows.map((row) => [row.claim_id, row.outcome]),
    );
    expect(countIn(sandbox, 'claims')).toBe(2);
  });

  it('a thinned journal with claims still to send is refused before anything is sent; --restart sends them', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1'), fraudRow('B', 'T1')]));
    const args = importArgs(workspace, input, ['--base-url', sandbox.url]);
    // A key the sandbox refuses: staged, nothing created, "run it again".
    const refused = await runCli(args, { CLAIMS_API_KEY: 'test_not_a_known_key_0009' });
    expect(refused.exitCode, refused.stderr).toBe(3);
    expect(countIn(sandbox, 'claims')).toBe(0);
    thinJournal(workspace.journal);

    const again = await runCli(args, env);

    expect(again.exitCode, again.stderr).toBe(2);
    expect(again.stderr).toContain(
      `JOURNAL_THINNED: ${workspace.journal}: expected a journal that still holds its rows' cells (its unfinished ` +
        'claims are sent from their cases as mapped, which prune removed), got one thinned by prune on 2031-04-05',
    );
    expect(again.stderr).toContain('run the same command with --restart');
    expect(again.stderr).not.toMatch(/\n\s+at /u);
    expect(countIn(sandbox, 'claims')).toBe(0);

    const restarted = await runCli([...args, '--restart'], env);
    expect(restarted.exitCode, restarted.stderr).toBe(0);
    expect(countIn(sandbox, 'claims')).toBe(2);
  });
});
