import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { proposeClaimKey } from '../../../src/mapping/guess/claim-key.js';
import type { DialectGuess } from '../../../src/csv/sniff-dialect.js';
import type { Draft } from '../../../src/mapping/guess/guess-mapping.js';
import { profileColumns } from '../../../src/mapping/guess/profile.js';
import type { Sample } from '../../../src/mapping/guess/types.js';
import { parseMapping } from '../../../src/mapping/load.js';
import { mapRow } from '../../../src/mapping/map-row.js';
import { guessSample, sampleOf } from './guess-sample.js';

const guess = (sample: Sample, overrides: Partial<DialectGuess> = {}): Draft =>
  guessSample(sample, { dialect: overrides });

/** Whole drafts of `mapping guess` from plain samples, no file involved. */

const fieldsOf = (draft: Draft) =>
  parseDocument(draft.yaml).toJS() as {
    claim: { key: string[] };
    shared: Record<string, Record<string, unknown>>;
    case: Record<string, Record<string, unknown>>;
    evidence?: unknown[];
  };

const arn = (n: number) => `74492156302000184${String(n).padStart(6, '0')}`;

/** A generic export: two disputes of two rows and one of one; the issuer's own reason codes, which no vocabulary knows. */
const generic = sampleOf(
  [
    'dispute_ref',
    'transaction_ref',
    'reason_code',
    'card_network',
    'card_last4',
    'currency',
    'transaction_amount',
    'transaction_date',
    'arn',
    'notes',
  ],
  [
    ['D-1', 'T1', 'RC1', 'VISA', '4417', 'EUR', '12.50', '2026-03-15', arn(1), 'call back'],
    ['D-1', 'T2', 'RC1', 'VISA', '4417', 'EUR', '1,200.00', '2026-03-16', arn(2), ''],
    ['D-2', 'T1', 'RC2', 'MC', '4242', 'USD', '99.99', '2026-04-01', arn(3), 'urgent'],
    ['D-2', 'T2', 'RC2', 'MC', '4242', 'USD', '5.00', '2026-04-02', arn(4), ''],
    ['D-3', 'T1', 'RC1', 'VISA', '1111', 'EUR', '7.00', '2026-05-20', arn(5), ''],
  ],
);

describe('guessMapping', () => {
  it('a draft lint accepts, with every row of the sample mapped once its TODOs are filled', () => {
    const draft = guess(generic);
    const mapping = parseMapping(draft.yaml, 'draft.yaml');
    expect(mapping.claim.key).toEqual(['dispute_ref']);
    expect(mapping.case.case_id).toMatchObject({ template: '{dispute_ref}-{transaction_ref}' });
    expect(draft.todos.map((todo) => todo.field)).toEqual(['shared.dispute.reason']);
    const filled = parseMapping(
      draft.yaml.replace('RC1: TODO', 'RC1: fraud').replace('RC2: TODO', 'RC2: product_not_received'),
      'filled.yaml',
    );
    for (const row of generic.rows) expect(mapRow(row, filled)).toMatchObject({ ok: true });
    // The same sample gives the same draft, byte for byte.
    expect(guess(generic).yaml).toBe(draft.yaml);
  });

  it('lists every column not placed, with what it holds, in a comment at the end', () => {
    const draft = guess(generic);
    expect(draft.unplaced).toEqual([{ column: 'notes', note: 'text, e.g. "call back"' }]);
    expect(draft.yaml).toMatch(/# Columns not placed[^\n]*\n#[^\n]*\n# {3}"notes": text, e\.g\. "call back"\n$/);
  });

  it('TODO lines point at the comment in the YAML', () => {
    const draft = guess(generic);
    const lines = draft.yaml.split('\n');
    for (const todo of draft.todos) expect(lines[todo.line - 1]).toContain(`# TODO: ${todo.message}`);
  });

  it('targets by values alone, with no header line: ARN, e-mail, network, last4 beside it, currency, expiry', () => {
    const rows = [0, 1, 2, 3].map((n) => [
      `R-${n % 2}`,
      arn(n),
      `person${n % 2}@example.com`,
      ['VISA', 'Mastercard'][n % 2] ?? '',
      ['4417', '4242'][n % 2] ?? '',
      'EUR',
      ['09/28', '12/30'][n % 2] ?? '',
    ]);
    const sample = sampleOf(['1', '2', '3', '4', '5', '6', '7'], rows);
    const draft = guess(sample, { header: false });
    const mapping = fieldsOf(draft);
    expect(mapping.case['transaction.arn']).toMatchObject({ column: '2' });
    expect(mapping.shared['cardholder.email']).toMatchObject({ column: '3' });
    // The API's own names in another case: a case step, no enum.
    expect(mapping.shared['card.network']).toEqual({ column: '4', required: true, case: 'lower' });
    expect(mapping.shared['card.last4']).toMatchObject({ column: '5' });
    expect(mapping.case['transaction.currency']).toMatchObject({ column: '6', case: 'upper' });
    expect(mapping.shared['card.expiry_month']).toMatchObject({ column: '7', split: { separator: '/', index: 0 } });
    expect(mapping.claim.key).toEqual(['1']);
    expect(draft.yaml).toContain('header: false');
    expect(() => parseMapping(draft.yaml, 'draft.yaml')).not.toThrow();
  });

  it('an ambiguous amount column is a TODO placeholder with both readings offered, never a guess', () => {
    const sample = sampleOf(
      ['ref', 'Amount', 'Currency'],
      [
        ['A', '1,234', 'KWD'],
        ['B', '5,678', 'KWD'],
      ],
    );
    const draft = guess(sample);
    expect(fieldsOf(draft).case['transaction.amount']).toEqual({ column: 'TODO', required: true });
    expect(draft.yaml).toContain(
      '# transaction.amount: { column: Amount, required: true, type: amount, amount: { currency_field: transaction.currency, decimal_separator: ".", group_separator: "," } }',
    );
    expect(draft.yaml).toContain(
      '# transaction.amount: { column: Amount, required: true, type: amount, amount: { currency_field: transaction.currency, decimal_separator: ",", group_separator: "." } }',
    );
    expect(draft.todos.find((todo) => todo.field === 'case.transaction.amount')?.message).toContain(
      'pick the decimal separator',
    );
    // Lint accepts it; each row fails on it until a person chooses.
    const mapping = parseMapping(draft.yaml, 'draft.yaml');
    const mapped = mapRow(sample.rows[0] ?? {}, mapping);
    expect(!mapped.ok && mapped.errors.find((error) => error.field === 'case.transaction.amount')).toMatchObject({
      code: 'required_missing',
      message: expect.stringContaining('"TODO"') as unknown,
    });
  });

  it('an ambiguous date column is a TODO placeholder with both formats offered', () => {
    const sample = sampleOf(
      ['ref', 'Transaction Date'],
      [
        ['A', '01/02/2026'],
        ['B', '03/04/2026'],
      ],
    );
    const draft = guess(sample);
    expect(fieldsOf(draft).case['transaction.date']).toEqual({ column: 'TODO', required: true });
    expect(draft.yaml).toContain(
      '# transaction.date: { column: "Transaction Date", required: true, type: date, date: { format: "dd/MM/yyyy" } }',
    );
    expect(draft.yaml).toContain(
      '# transaction.date: { column: "Transaction Date", required: true, type: date, date: { format: "MM/dd/yyyy" } }',
    );
    // Offered in the alternatives, so not listed as unplaced as well.
    expect(draft.unplaced).toEqual([]);
    expect(draft.todos.find((todo) => todo.field === 'case.transaction.date')?.message).toContain('day or month first');
  });

  it('a sample with nothing recognisable still lints: every required target a TODO', () => {
    const draft = guess(
      sampleOf(
        ['x', 'y'],
        [
          ['alpha', 'beta'],
          ['gamma', 'delta'],
        ],
      ),
    );
    expect(() => parseMapping(draft.yaml, 'draft.yaml')).not.toThrow();
    expect(draft.todos.map((todo) => todo.field).sort()).toEqual(
      [
        'case.transaction.amount',
        'case.transaction.arn',
        'case.transaction.currency',
        'case.transaction.date',
        'shared.card.last4',
        'shared.card.network',
        'shared.dispute.reason',
      ].sort(),
    );
    expect(draft.unplaced.map((column) => column.column)).toEqual(['y']);
  });

  it('one currency column serves both amounts; a header over values that do not fit is not followed', () => {
    const sample = sampleOf(
      ['ref', 'Amount', 'Disputed Amount', 'Currency', 'Date'],
      [
        ['A', '10.00', '5.00', 'EUR', 'n/a'],
        ['B', '20.00', '20.00', 'USD', 'unknown'],
      ],
    );
    const mapping = fieldsOf(guess(sample));
    expect(mapping.case['dispute.amount']).toMatchObject({
      column: 'Disputed Amount',
      amount: { currency_field: 'dispute.currency' },
    });
    expect(mapping.case['dispute.currency']).toMatchObject({ column: 'Currency' });
    expect(mapping.case['transaction.date']).toEqual({ column: 'TODO', required: true });
    expect(guess(sample).unplaced.find((column) => column.column === 'Date')?.note).toContain('expected dates');
  });

  it("the dispute's date and the cardholder's words by their headers; dates are no one's words", () => {
    const sample = sampleOf(
      ['ref', 'Opened On', 'Customer Statement', 'Transaction Date'],
      [
        ['A', '15/03/2026', 'Never arrived.', '01/03/2026'],
        ['B', '16/03/2026', 'Not mine.', '02/03/2026'],
      ],
    );
    const mapping = fieldsOf(guess(sample));
    expect(mapping.shared['dispute.date']).toEqual({
      column: 'Opened On',
      type: 'date',
      date: { format: 'dd/MM/yyyy' },
    });
    expect(mapping.shared['issuer_evidence.cardholder_explanation']).toEqual({ column: 'Customer Statement' });
    const dated = sampleOf(
      ['ref', 'Explanation', 'Transaction Date'],
      [
        ['A', '15/03/2026', '01/03/2026'],
        ['B', '16/03/2026', '02/03/2026'],
      ],
    );
    const draft = guess(dated);
    expect(fieldsOf(draft).shared['issuer_evidence.cardholder_explanation']).toBeUndefined();
    expect(draft.unplaced.find((column) => column.column === 'Explanation')?.note).toContain(
      "expected the cardholder's words, got date values",
    );
  });

  it('evidence columns by header and by values, several paths split on their separator', () => {
    const sample = sampleOf(
      ['ref', 'Receipt', 'attachments_x'],
      [
        ['A', 'r/a.pdf', 'c/1.png; c/2.jpg'],
        ['B', '', 'c/3.png'],
      ],
    );
    const mapping = fieldsOf(guess(sample));
    expect(mapping.evidence).toEqual([
      { column: 'Receipt', category: 'transaction_receipt' },
      { column: 'attachments_x', category: 'other', separator: ';' },
    ]);
  });
});

describe('proposeClaimKey', () => {
  const profiles = (sample: Sample) => profileColumns(sample, true);

  it('the column whose values repeat and whose rows agree on the claim-level columns', () => {
    const sample = sampleOf(
      ['case', 'card', 'reason'],
      [
        ['C1', '4417', 'FR'],
        ['C1', '4417', 'FR'],
        ['C2', '4417', 'NR'],
        ['C2', '4417', 'NR'],
      ],
    );
    expect(proposeClaimKey(sample, profiles(sample).slice(0, 1), ['card', 'reason'])).toMatchObject({
      column: 'case',
      grouping: 'repeats',
      confidence: 'medium',
    });
  });

  it('not a column that groups rows which disagree (a card with two disputes)', () => {
    const sample = sampleOf(
      ['card', 'ref', 'reason'],
      [
        ['4417', 'A', 'FR'],
        ['4417', 'B', 'NR'],
        ['4242', 'C', 'FR'],
      ],
    );
    expect(proposeClaimKey(sample, profiles(sample).slice(0, 2), ['reason'])).toMatchObject({
      column: 'ref',
      grouping: 'one_row_per_claim',
    });
  });

  it('the finest agreeing grouping wins; a named dispute reference wins over both', () => {
    const sample = sampleOf(
      ['batch', 'ticket', 'reason'],
      [
        ['B1', 'T1', 'FR'],
        ['B1', 'T1', 'FR'],
        ['B1', 'T2', 'FR'],
        ['B1', 'T2', 'FR'],
      ],
    );
    expect(proposeClaimKey(sample, profiles(sample).slice(0, 2), ['reason']).column).toBe('ticket');
    const named = sampleOf(
      ['dispute_ref', 'ticket', 'reason'],
      [
        ['D1', 'T1', 'FR'],
        ['D1', 'T2', 'FR'],
        ['D2', 'T3', 'NR'],
        ['D2', 'T3', 'NR'],
      ],
    );
    expect(proposeClaimKey(named, profiles(named).slice(0, 2), ['reason'])).toMatchObject({
      column: 'dispute_ref',
      confidence: 'high',
    });
  });

  it('a named reference whose rows disagree is still proposed, low, with the disagreement named', () => {
    const sample = sampleOf(
      ['dispute_ref', 'reason'],
      [
        ['D1', 'FR'],
        ['D1', 'NR'],
      ],
    );
    const guessed = proposeClaimKey(sample, profiles(sample).slice(0, 1), ['reason']);
    expect(guessed).toMatchObject({ column: 'dispute_ref', confidence: 'low' });
    expect(guessed.evidence).toContain('"D1" differs in "reason"');
  });

  it('no candidate: none, and the draft writes a TODO key', () => {
    const sample = sampleOf(['a'], [['x'], ['x'], ['']]);
    expect(proposeClaimKey(sample, [], [])).toMatchObject({ column: undefined, grouping: 'none' });
    const draft = guess(sampleOf(['Amount'], [['1.00'], ['1.00']]));
    expect(fieldsOf(draft).claim.key).toEqual(['TODO']);
    expect(draft.todos.map((todo) => todo.field)).toContain('claim.key');
  });
});
