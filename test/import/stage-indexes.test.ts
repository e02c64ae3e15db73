import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/import/journal/journal.js';
import { stageRows } from '../../src/import/stage/index.js';
import { parseMapping } from '../../src/mapping/load.js';

/**
 * The rows' indexes are built when staging ends instead of row by row. A case id taken by an
 * earlier row is then refused by a query, in the words the UNIQUE index's refusal had; a journal
 * whose staging stopped part-way (no indexes, perhaps a case id twice) still opens.
 */

const mapping = parseMapping(
  `
claim: { key: [ref] }
shared: { card.last4: { column: last4 }, card.network: { constant: visa }, dispute.reason: { constant: fraud } }
case:
  case_id: { column: arn }
  transaction.amount: { column: amount, type: amount, amount: { currency: USD, decimal_separator: "." } }
  transaction.currency: { constant: USD }
  transaction.date: { column: date, type: date, date: { format: yyyy-MM-dd } }
  transaction.arn: { column: arn }
`,
  'case-id.yaml',
);
const header = 'ref,last4,amount,date,arn';
const directories: string[] = [];

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function journalFile(): string {
  const directory = mkdtempSync(join(tmpdir(), 'stage-indexes-'));
  directories.push(directory);
  return join(directory, 'journal.sqlite');
}

async function stage(journal: Journal, lines: string[]): Promise<void> {
  await stageRows({ input: Readable.from([`${[header, ...lines].join('\n')}\n`]), mapping, journal });
}

const rowIndexes = (database: Database.Database): string[] =>
  (
    database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rows' ORDER BY name")
      .all() as { name: string }[]
  ).map((index) => index.name);

describe('staging without per-row indexes', () => {
  it("refuses a case id on every row after the one that took it, keeping each row's claim and place", async () => {
    const journal = new Journal(journalFile());
    // Another amount on each ARN taken again: the same ARN and amount would be a duplicate, never staged as a case.
    await stage(journal, [
      'A,4242,1.00,2026-03-01,74492156302000184700001',
      'B,4242,3.00,2026-03-01,74492156302000184700001',
      'A,4242,2.00,2026-03-02,74492156302000184700002',
      'C,4242,4.00,2026-03-01,74492156302000184700001',
    ]);
    const rows = journal.database
      .prepare(
        'SELECT claim_key, ordinal, case_id, case_json, evidence_json, outcome, error_code, error_field, error_message FROM rows ORDER BY idx',
      )
      .all();
    const indexes = rowIndexes(journal.database);
    journal.close();
    const refused = (claimKey: string) => ({
      claim_key: claimKey,
      ordinal: 0,
      case_id: null,
      case_json: null,
      evidence_json: null,
      outcome: 'invalid',
      error_code: 'case_id_duplicate',
      error_field: 'case.case_id',
      error_message: 'case id: expected a case id used once, got 74492156302000184700001 again',
    });
    expect(rows).toMatchObject([
      { claim_key: '["A"]', ordinal: 0, case_id: '74492156302000184700001', outcome: null },
      refused('["B"]'),
      { claim_key: '["A"]', ordinal: 1, case_id: '74492156302000184700002', outcome: null },
      refused('["C"]'),
    ]);
    expect(indexes).toEqual(['rows_by_case_id', 'rows_by_claim']);
  });

  it('opens a journal whose staging stopped part-way, and stages it again with its indexes', async () => {
    const file = journalFile();
    const first = new Journal(file);
    await stage(first, ['A,4242,1.00,2026-03-01,74492156302000184700001']);
    first.close();
    // As a kill mid-staging leaves it: rows without their indexes, one case id twice, not marked staged.
    const raw = new Database(file);
    raw.exec('DROP INDEX rows_by_claim; DROP INDEX rows_by_case_id;');
    raw.exec(
      "INSERT INTO rows (idx, line, source, case_id) SELECT idx + 1, line + 1, source, case_id FROM rows; DELETE FROM meta WHERE key = 'staged';",
    );
    raw.close();

    const reopened = new Journal(file);
    expect(rowIndexes(reopened.database)).toEqual([]);
    reopened.reset();
    await stage(reopened, [
      'A,4242,1.00,2026-03-01,74492156302000184700001',
      'B,4242,1.00,2026-03-01,74492156302000184700009',
    ]);
    const rows = reopened.database.prepare('SELECT case_id, outcome FROM rows ORDER BY idx').all();
    const indexes = rowIndexes(reopened.database);
    reopened.close();
    expect(rows).toEqual([
      { case_id: '74492156302000184700001', outcome: null },
      { case_id: '74492156302000184700009', outcome: null },
    ]);
    expect(indexes).toEqual(['rows_by_case_id', 'rows_by_claim']);
  });

  it('gives a journal staged with its indexes in place, as earlier versions did, its indexes unchanged, and a new empty journal its indexes', async () => {
    const file = journalFile();
    const journal = new Journal(file);
    expect(rowIndexes(journal.database)).toEqual(['rows_by_case_id', 'rows_by_claim']);
    await stage(journal, ['A,4242,1.00,2026-03-01,74492156302000184700001']);
    journal.meta.set('staged', true);
    journal.close();
    const reopened = new Journal(file);
    const indexes = rowIndexes(reopened.database);
    reopened.close();
    expect(indexes).toEqual(['rows_by_case_id', 'rows_by_claim']);
  });
});
