import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { makeWorkspace, readResults, runCli } from './e2e-fixtures.js';

/**
 * A bank report written the way banks write them (docs/mappings.md, "Amounts and signs as banks
 * write them"): amounts with eight decimals, chargebacks as debits (a minus in the cell, or `D`
 * in a sign column beside it), `yyyyMMdd` dates, a response deadline, and columns a spreadsheet
 * damaged. `mapping guess` drafts the mapping from last month's report; this month's, with a few
 * bad rows, goes through a dry run: every row once in the results, each bad one with its code.
 */

const header =
  'Dispute Ref,Card Last 4,Network,Reason,Currency,Transaction Amount,Chargeback Amount,DC,Posting Date,' +
  'Response Deadline,Unit Id,Batch Time,ARN';
const arn = (n: number) => `74492156302000184${String(n).padStart(6, '0')}`;
const row = (ref: string, overrides: { txn?: string; amount?: string; dc?: string; date?: string } = {}) =>
  [
    ref,
    ref.slice(-4),
    'VISA',
    'fraud',
    'USD',
    overrides.txn ?? '-435.52000000',
    overrides.amount ?? '435.52000000',
    overrides.dc ?? 'D',
    overrides.date ?? '20240703',
    `2024-08-${ref.slice(-2)}`,
    '994268.00000',
    '00:00.0',
    arn(Number(ref.replace(/\D/g, ''))),
  ].join(',');

const lastMonth = [
  header,
  row('DSP-1001'),
  row('DSP-1002', { txn: '-12.00000000', amount: '12.00000000' }),
  row('DSP-1003', { txn: '(99.99)', amount: '99.99000000', date: '20240705' }),
  row('DSP-1004', { txn: '1.50000000-', amount: '1.50000000', date: '20240706' }),
].join('\n');

const thisMonth = [
  header,
  row('DSP-2001'),
  row('DSP-2002', { dc: 'X' }),
  row('DSP-2003', { amount: '435.525' }),
  row('DSP-2004', { date: '20240230' }),
  row('DSP-2005', { amount: '-435.52', dc: 'C' }),
  row('DSP-2006', { txn: '\u2212435.52000000', amount: '-435.52000000' }),
].join('\n');

describe('a bank report of debits, guessed and dry-run', () => {
  it('guess reads the debits, the sign column and the compact dates; the dry run refuses only the bad rows', async () => {
    const workspace = await makeWorkspace();
    const sample = await workspace.write('last-month.csv', `${lastMonth}\n`);
    const input = await workspace.write('this-month.csv', `${thisMonth}\n`);
    const draft = join(workspace.dir, 'bank.yaml');

    const guessed = await runCli(['mapping', 'guess', sample, '--out', draft]);
    expect(guessed.exitCode, guessed.stderr).toBe(0);
    // The command's summary (its decisions and CHECKs) goes to stderr, as its notes do.
    const summary = guessed.stdout + guessed.stderr;
    expect(summary).toMatch(/case\.transaction\.date\s+column "Posting Date"\s+high/);
    expect(summary).toMatch(/claim\.key\s+Dispute Ref/);
    expect(summary).toContain('4 of 4 sampled amounts are negative');
    const yaml = await readFile(draft, 'utf8');
    const mapping = parseDocument(yaml).toJS() as { case: Record<string, { amount?: unknown; date?: unknown }> };
    expect(mapping.case['transaction.amount']?.amount).toMatchObject({ negative: 'magnitude' });
    expect(mapping.case['dispute.amount']?.amount).toMatchObject({
      negative: 'magnitude',
      sign_column: { column: 'DC', negative: ['D'], positive: ['C'] },
    });
    expect(mapping.case['transaction.date']?.date).toEqual({ format: 'yyyyMMdd' });
    expect(yaml).toContain('"Response Deadline": dates as "yyyy-MM-dd"; its header names a deadline');
    expect(yaml).toContain('"Batch Time": times of day as a spreadsheet shows them');
    expect(yaml).toContain('"Unit Id": ids written as decimals');

    const dry = await runCli([
      'import',
      input,
      '--mapping',
      draft,
      '--dry-run',
      '--file-mode',
      'none',
      '--results',
      workspace.results,
      '--journal',
      workspace.journal,
      '--log-level',
      'silent',
    ]);
    expect(dry.exitCode, dry.stderr).toBe(1);
    const { rows } = await readResults(workspace.results);
    expect(
      rows.map((result) => [result['Dispute Ref'], result.outcome, result.error_code, result.error_field]),
    ).toEqual([
      ['DSP-2001', 'valid', '', ''],
      ['DSP-2002', 'invalid', 'amount_sign_unknown', 'case.dispute.amount'],
      ['DSP-2003', 'invalid', 'amount_precision', 'case.dispute.amount'],
      ['DSP-2004', 'invalid', 'date_invalid', 'case.transaction.date'],
      ['DSP-2005', 'invalid', 'amount_sign_conflict', 'case.dispute.amount'],
      ['DSP-2006', 'valid', '', ''],
    ]);
    expect(rows[1]?.error_message).toBe(
      'amount.sign_column: expected "D" (negative) or "C" (positive) in column "DC", got "X"',
    );
  }, 60_000);
});
