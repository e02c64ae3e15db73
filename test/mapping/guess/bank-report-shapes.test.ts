import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { classifyAmount } from '../../../src/mapping/guess/classify-amount.js';
import { classifyDate } from '../../../src/mapping/guess/classify-date.js';
import type { Draft } from '../../../src/mapping/guess/guess-mapping.js';
import { matchHeader } from '../../../src/mapping/guess/header-names.js';
import type { Sample } from '../../../src/mapping/guess/types.js';
import { guessSample, sampleOf } from './guess-sample.js';

const guess = (sample: Sample): Draft => guessSample(sample, { source: 'report.csv' });

/**
 * `mapping guess` on the shapes bank reports come in (docs/mappings.md, "Amounts and signs as
 * banks write them"): eight decimals, debits, a sign column, compact dates, deadlines, and the
 * columns a spreadsheet or the bank's tool damaged. Fixtures of our own, written in those shapes.
 */

const specsOf = (draft: Draft) =>
  parseDocument(draft.yaml).toJS() as { claim: { key: string[] }; case: Record<string, Record<string, unknown>> };

const twelve = Array.from({ length: 12 }, (_, index) => index + 1);

describe('amounts as bank reports write them', () => {
  it('takes eight decimals, and reads a column of debits as their magnitude with a CHECK', () => {
    const cells = twelve.map((n) => ({ text: `-${n}.52000000`, currency: 'USD' }));
    expect(classifyAmount(cells)).toMatchObject({ kind: 'amount', reading: { decimal: '.' }, negatives: 12 });

    const sample = sampleOf(
      ['Dispute Ref', 'Currency', 'Chargeback Amount'],
      twelve.map((n) => [`DSP-${n}`, 'USD', n % 2 === 0 ? `(${n}.50)` : `-${n}.50000000`]),
    );
    const draft = guess(sample);
    expect(specsOf(draft).case['dispute.amount']).toMatchObject({
      column: 'Chargeback Amount',
      type: 'amount',
      amount: { decimal_separator: '.', negative: 'magnitude' },
    });
    expect(draft.checks).toContainEqual(
      expect.objectContaining({
        field: 'case.dispute.amount',
        message: expect.stringContaining('12 of 12 sampled amounts are negative') as string,
      }),
    );
  });

  it('leaves a column of debits and credits refusing its negatives, and says how many there are', () => {
    const sample = sampleOf(
      ['Dispute Ref', 'Currency', 'Chargeback Amount'],
      twelve.map((n) => [`DSP-${n}`, 'USD', n <= 3 ? `${n}.50-` : `${n}.50`]),
    );
    const draft = guess(sample);
    const amount = specsOf(draft).case['dispute.amount']?.amount as Record<string, unknown>;
    expect(amount.negative).toBeUndefined();
    expect(draft.checks.map((check) => check.message).join('\n')).toContain(
      '3 of 12 sampled amounts are negative: refused as amount_negative',
    );
  });

  it('proposes the sign column beside an amount, D negative and C positive, with a CHECK', () => {
    const sample = sampleOf(
      ['Dispute Ref', 'Currency', 'Transaction Amount', 'DC', 'Merchant'],
      twelve.map((n) => [`DSP-${n}`, 'USD', `${n}.00000000`, n === 5 ? 'C' : 'D', `Shop ${n}`]),
    );
    const draft = guess(sample);
    expect(specsOf(draft).case['transaction.amount']?.amount).toMatchObject({
      sign_column: { column: 'DC', negative: ['D'], positive: ['C'] },
    });
    // 11 of 12 negative by their sign: not every one, so refused unless a person says otherwise.
    expect((specsOf(draft).case['transaction.amount']?.amount as Record<string, unknown>).negative).toBeUndefined();
    const check = draft.checks.find((found) => found.field === 'case.transaction.amount')?.message ?? '';
    expect(check).toContain('11 of 12 sampled amounts are negative');
    expect(check).toContain('the sign from column "DC" (beside it; values "D" (11), "C" (1)): "D" negative');
    expect(draft.unplaced.map((column) => column.column)).not.toContain('DC');
    expect(specsOf(draft).claim.key).toEqual(['Dispute Ref']);
  });

  it('takes a sign column elsewhere in the file only by a header that names a sign', () => {
    const rows = twelve.map((n) => [`DSP-${n}`, '+', 'USD', `${n}.50`]);
    const named = guess(sampleOf(['Dispute Ref', 'Credit Debit Indicator', 'Currency', 'Amount'], rows));
    expect(specsOf(named).case['transaction.amount']?.amount).toMatchObject({
      sign_column: { column: 'Credit Debit Indicator', negative: ['-'], positive: ['+'] },
    });
    const unnamed = guess(sampleOf(['Dispute Ref', 'Flag', 'Currency', 'Amount'], rows));
    expect(
      (specsOf(unnamed).case['transaction.amount']?.amount as Record<string, unknown>).sign_column,
    ).toBeUndefined();
  });

  it("tries a header's other role when its values do not fit the first", () => {
    expect(matchHeader('Settlement Currency Amount')).toMatchObject({
      role: 'transaction.currency',
      alternatives: ['transaction.amount'],
    });
    const sample = sampleOf(
      ['Dispute Ref', 'Settlement Currency Code', 'Settlement Currency Amount'],
      twelve.map((n) => [`DSP-${n}`, 'USD', `${n}.50000000`]),
    );
    const specs = specsOf(guess(sample)).case;
    expect(specs['transaction.currency']).toMatchObject({ column: 'Settlement Currency Code' });
    expect(specs['transaction.amount']).toMatchObject({ column: 'Settlement Currency Amount', type: 'amount' });
  });
});

describe('dates as bank reports write them', () => {
  it('reads yyyyMMdd when every sampled value is an existing date in a plausible year', () => {
    expect(classifyDate(['20240703', '20240704', '20231231'])).toMatchObject({
      kind: 'date',
      format: 'yyyyMMdd',
      confidence: 'high',
      evidence: 'format "yyyyMMdd", each of the 3 sampled values an existing date from 2023 to 2024',
    });
    expect(classifyDate(['20240703 14:30', '20240704 09:05'])).toMatchObject({
      format: 'yyyyMMdd HH:mm',
      needsTimeZone: true,
    });
  });

  it('takes no 8-digit number for a date: one impossible date, one implausible year, one other shape', () => {
    expect(classifyDate(['20240703', '20240230'])).toBeUndefined();
    expect(classifyDate(['20240703', '18990101'])).toBeUndefined();
    expect(classifyDate(['20240703', '2024070'])).toBeUndefined();
    expect(classifyDate(['12345678', '87654321'])).toBeUndefined();
  });

  it('reads six digits as yyMMdd only under a header that names a date', () => {
    expect(classifyDate(['240703', '240704'])).toBeUndefined();
    expect(classifyDate(['240703', '240704'], { sixDigits: true })).toMatchObject({
      format: 'yyMMdd',
      confidence: 'medium',
    });
    expect(classifyDate(['994268', '240704'], { sixDigits: true })).toBeUndefined();
  });

  it('places a yyyyMMdd column as the transaction date, and never a deadline', () => {
    const rows = twelve.map((n) => [`DSP-${n}`, `202407${String(n).padStart(2, '0')}`, `2024-08-${10 + n}`]);
    const draft = guess(sampleOf(['Dispute Ref', 'Posting Date', 'Response Deadline'], rows));
    expect(specsOf(draft).case['transaction.date']).toMatchObject({
      column: 'Posting Date',
      date: { format: 'yyyyMMdd' },
    });
    // Alone, the deadline's dates are still not the transaction's: a TODO is right.
    const alone = guess(
      sampleOf(
        ['Dispute Ref', 'Representment Deadline'],
        rows.map(([ref, , due]) => [ref ?? '', due ?? '']),
      ),
    );
    expect(alone.todos.map((todo) => todo.field)).toContain('case.transaction.date');
    expect(alone.unplaced).toContainEqual({
      column: 'Representment Deadline',
      note: 'dates as "yyyy-MM-dd"; its header names a deadline, which is never the transaction date',
    });
    for (const header of ['Dispute Due Date', 'Fecha límite', 'Antwortfrist', 'Date limite de réponse', 'Prazo'])
      expect(matchHeader(header)?.role, header).toBe('deadline');
  });
});

describe('what a spreadsheet or the bank tool did, as guess sees it', () => {
  it('never proposes a column of spreadsheet times or decimal ids as the claim key, and says why', () => {
    const rows = [1, 1, 2, 2, 3, 3].map((n, index) => [
      `Shop ${index}`,
      ['00:00.0', '12:34.5', '07:10.0'][n - 1] ?? '',
      `99426${n}.00000`,
      'USD',
      '10.00',
    ]);
    const draft = guess(sampleOf(['Merchant', 'Batch Time', 'Unit Id', 'Currency', 'Amount'], rows));
    expect(specsOf(draft).claim.key).not.toContain('Batch Time');
    expect(specsOf(draft).claim.key).not.toContain('Unit Id');
    const notes = Object.fromEntries(draft.unplaced.map(({ column, note }) => [column, note]));
    expect(notes['Batch Time']).toContain('times of day as a spreadsheet shows them, e.g. "00:00.0"');
    expect(notes['Unit Id']).toContain('ids written as decimals, e.g. "994261.00000"');
  });

  it('reads whole amounts written with decimals under an amount header as amounts, not damage', () => {
    const draft = guess(
      sampleOf(
        ['Dispute Ref', 'Currency', 'Disputed Amount'],
        twelve.map((n) => [`DSP-${n}`, 'USD', `${n}00.00000`]),
      ),
    );
    expect(specsOf(draft).case['dispute.amount']).toMatchObject({ column: 'Disputed Amount', type: 'amount' });
  });
});
