import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { derivedClaimId } from '../../src/job-files/claims/ids.js';
import { statusColumns } from '../../src/job-files/import/columns.js';
import { Journal, type RowRecord } from '../../src/import/journal/journal.js';
import { stageRows } from '../../src/import/stage/index.js';
import { parseMapping } from '../../src/mapping/load.js';

/**
 * What staging leaves in the journal for rows set aside (docs/import.md, "Duplicates"): a
 * duplicate is in no claim, its claim counts the rows left and starts at the first of them, a
 * claim left with none is gone, and a fed-back row reported created is never a duplicate.
 */

const mapping = parseMapping(
  `
claim: { key: [ref] }
shared:
  card.last4: { column: last4 }
  card.network: { constant: visa }
  dispute.reason: { constant: fraud }
case:
  transaction.amount: { column: amount, type: amount, amount: { currency: USD, decimal_separator: "." } }
  transaction.currency: { constant: USD }
  transaction.date: { column: date, type: date, date: { format: yyyy-MM-dd } }
  transaction.arn: { column: arn }
rows:
  only: { kind: [D, "detail "] }
`,
  'test-mapping.yaml',
);

const header = 'ref,kind,last4,amount,date,arn';
const arn = (n: number) => `7449215630200018470000${n}`;
const directories: string[] = [];

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

async function stage(lines: string[], head = header) {
  const directory = mkdtempSync(join(tmpdir(), 'stage-duplicates-'));
  directories.push(directory);
  const journal = new Journal(join(directory, 'journal.sqlite'));
  await stageRows({ input: Readable.from([`${[head, ...lines].join('\n')}\n`]), mapping, journal });
  const rows = journal.database
    .prepare('SELECT line, claim_key, ordinal, case_id, outcome, error_code, error_message FROM rows ORDER BY idx')
    .all() as Pick<
    RowRecord,
    'line' | 'claim_key' | 'ordinal' | 'case_id' | 'outcome' | 'error_code' | 'error_message'
  >[];
  const claims = journal.database
    .prepare('SELECT claim_key, rows, first_line, sent FROM claims ORDER BY first_idx')
    .all() as { claim_key: string; rows: number; first_line: number; sent: number }[];
  journal.close();
  return { rows, claims };
}

describe('staging: rows set aside', () => {
  it('a claim whose only row repeats another claim’s transaction is gone; the claim left starts at its first row', async () => {
    const { rows, claims } = await stage([
      `A,D,4417,10.00,2026-01-02,${arn(1)}`,
      `B,D,4417,10.00,2026-01-02,${arn(1)}`,
      `C,summary,,,,`,
      `C,D,4417,5.00,2026-01-02,${arn(2)}`,
      `C,D,4417,5.00,2026-01-02,${arn(2)}`,
      `C,D,4417,6.00,2026-01-02,${arn(3)}`,
    ]);
    expect(rows.map((row) => [row.line, row.claim_key, row.outcome, row.error_code, row.error_message])).toEqual([
      [2, '["A"]', null, null, null],
      [3, null, 'duplicate', 'duplicate_row', 'the same dispute as line 2 (the same ARN and amount)'],
      [4, null, 'skipped', 'row_skipped', 'rows.only: "kind" is "summary", expected one of "D", "detail "'],
      [5, '["C"]', null, null, null],
      [6, null, 'duplicate', 'duplicate_row', 'the same dispute as line 5 (an identical row)'],
      [7, '["C"]', null, null, null],
    ]);
    // B had no other row: no claim of it is left to send.
    expect(claims).toEqual([
      { claim_key: '["A"]', rows: 1, first_line: 2, sent: 0 },
      { claim_key: '["C"]', rows: 2, first_line: 5, sent: 0 },
    ]);
    // The case ids are those the rows had as staged: a re-staging gives the same ones.
    const claimC = derivedClaimId('["C"]');
    expect(rows.filter((row) => row.claim_key === '["C"]').map((row) => row.case_id)).toEqual([
      `${claimC}-1`,
      `${claimC}-3`,
    ]);
  });

  it('trims and ignores case in rows.only; a row of the wrong width is invalid, not skipped', async () => {
    const { rows } = await stage([
      `A, detail ,4417,10.00,2026-01-02,${arn(1)}`,
      `B,d,4417,11.00,2026-01-02,${arn(2)}`,
      `C,X,4417`,
    ]);
    expect(rows.map((row) => [row.line, row.outcome, row.error_code])).toEqual([
      [2, null, null],
      [3, null, null],
      [4, 'invalid', 'csv_column_count'],
    ]);
  });

  it('fed back, rows reported created are never duplicates: the others repeat the one the service holds', async () => {
    const status = statusColumns.join(',');
    const claimId = derivedClaimId('["A"]');
    const statusOf = (line: number, outcome: string, caseId = '') =>
      `${line},"[""A""]",${outcome === 'filed' ? claimId : ''},${caseId},${outcome},,,,,,,,`;
    const cells = `A,D,4417,10.00,2026-01-02,${arn(1)}`;
    const { rows, claims } = await stage(
      [
        `${statusOf(2, 'invalid')},${cells}`,
        `${statusOf(3, 'filed', `${claimId}-2`)},${cells}`,
        `${statusOf(4, 'filed', `${claimId}-3`)},${cells}`,
      ],
      `${status},${header}`,
    );
    expect(rows.map((row) => [row.line, row.claim_key, row.outcome, row.error_message])).toEqual([
      [2, null, 'duplicate', 'the same dispute as line 3 (an identical row)'],
      [3, '["A"]', null, null],
      [4, '["A"]', null, null],
    ]);
    expect(claims).toEqual([{ claim_key: '["A"]', rows: 2, first_line: 3, sent: 1 }]);
  });
});
