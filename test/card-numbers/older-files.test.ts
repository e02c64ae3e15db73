import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { findCardNumbers } from '../../src/card-numbers/find.js';
import { maskedForm } from '../../src/card-numbers/mask.js';
import { openReviewJob } from '../../src/review/job.js';
import { ReviewStore } from '../../src/review/store.js';
import { importSampleWithBadAmount, temporaryFolder } from '../report/fixture.js';
import { call, serveReview } from '../review/review-http.js';
import { runCli } from '../helpers/cli.js';
import { everyFile } from './every-file.js';
import { root } from './card-export.js';

/**
 * A journal and a review store that a version before masking left: a card number whole in a row's
 * cells, in its error message and in a reviewer's kept edit. What report, merge-results and the
 * review make of them (terminal, page, workbook, results, fix file) holds them masked.
 */

const inCells = '4970101000000012';
const inMessage = '5105105105105100';
const inEdit = '378282246310005';

/**
 * The journal and its review store as an older version could have left them: a number in the
 * invalid row's statement and in its error message; the claim's other row edited, a number typed.
 */
function forgeOlderFiles(journal: string, invalid: number, edited: number): void {
  const database = new Database(journal);
  let columns: string[];
  let editedCells: string[];
  try {
    const sourceOf = (line: number) =>
      JSON.parse(
        (database.prepare('SELECT source FROM rows WHERE line = ?').get(line) as { source: string }).source,
      ) as string[];
    columns = JSON.parse(
      (database.prepare("SELECT value FROM meta WHERE key = 'source_columns'").get() as { value: string }).value,
    ) as string[];
    const cells = sourceOf(invalid);
    cells[columns.indexOf('cardholder_statement')] = `Ma carte ${inCells} a été débitée deux fois.`;
    database
      .prepare('UPDATE rows SET source = ?, error_message = ? WHERE line = ?')
      .run(JSON.stringify(cells), `amount: expected an amount, got "${inMessage}"`, invalid);
    // An older version did not mark its journal masked.
    database.prepare("DELETE FROM meta WHERE key = 'card_numbers_masked'").run();
    editedCells = sourceOf(edited);
  } finally {
    database.close();
  }
  const store = new Database(ReviewStore.fileFor(journal));
  try {
    store.exec('CREATE TABLE edits (line INTEGER PRIMARY KEY, cells TEXT NOT NULL, updated_at TEXT NOT NULL)');
    const edit = Object.fromEntries(columns.map((column, position) => [column, editedCells[position] ?? '']));
    edit.cardholder_name = `Maya ${inEdit}`;
    store.prepare('INSERT INTO edits VALUES (?, ?, ?)').run(edited, JSON.stringify(edit), new Date().toISOString());
  } finally {
    store.close();
  }
}

it('an older journal gives masked results to report (terminal, page, workbook) and merge-results', async () => {
  const folder = await temporaryFolder();
  const { journal, imported } = await importSampleWithBadAmount(folder, '84x.99');
  expect(imported.exitCode, imported.stderr).toBe(1);
  forgeOlderFiles(journal, 2, 6);
  const out = (name: string) => join(folder, name);
  const report = await runCli(['report', journal, '--html', out('report.html'), '--xlsx', out('report.xlsx')]);
  const merged = await runCli(['merge-results', journal, '--out', out('merged.csv')]);
  expect([report.exitCode, merged.exitCode], report.stderr + merged.stderr).toEqual([0, 0]);
  const texts = [report.stdout, report.stderr, merged.stdout, merged.stderr];
  for (const file of ['report.html', 'merged.csv']) texts.push(await readFile(out(file), 'utf8'));
  const workbook = (await everyFile(folder)).filter(({ where }) => where.startsWith('report.xlsx'));
  expect(workbook.length).toBeGreaterThan(0);
  const written = [...texts, ...workbook.map(({ text }) => text)].join('\n');
  expect(findCardNumbers(written)).toEqual([]);
  for (const digits of [inCells, inMessage]) expect(written).toContain(maskedForm(digits));
});

it('an older journal and store are reviewed with their card numbers masked: the page and the fix file', async () => {
  const folder = await temporaryFolder();
  const { journal, imported } = await importSampleWithBadAmount(folder, '84x.99');
  expect(imported.exitCode, imported.stderr).toBe(1);
  forgeOlderFiles(journal, 2, 6);
  const job = await openReviewJob([journal], join(root, 'mappings/generic.yaml'));
  const server = await serveReview(job, join(root, 'samples/evidence'));
  const page = [
    JSON.stringify((await call(server, 'GET', '/api/overview')).body),
    JSON.stringify((await call(server, 'GET', '/api/rows?scope=all')).body),
  ].join('\n');
  const saved = (await call<{ file: string }>(server, 'POST', '/api/save')).body;
  const fixFile = await readFile(saved.file, 'utf8');
  for (const [where, text] of Object.entries({ page, fixFile })) {
    expect(findCardNumbers(text), where).toEqual([]);
    expect(text, where).toContain(maskedForm(inCells));
    expect(text, where).toContain(maskedForm(inEdit));
  }
  expect(page).toContain(maskedForm(inMessage));
});
