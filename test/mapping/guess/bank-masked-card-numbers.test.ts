import { describe, expect, it } from 'vitest';
import { findCardNumbers } from '../../../src/card-numbers/find.js';
import { passesLuhn } from '../../../src/card-numbers/networks.js';
import type { Draft } from '../../../src/mapping/guess/guess-mapping.js';
import type { Sample } from '../../../src/mapping/guess/types.js';
import { parseMapping } from '../../../src/mapping/load.js';
import { mapRow } from '../../../src/mapping/map-row.js';
import { guessSample } from './guess-sample.js';

const guess = (sample: Sample): Draft => guessSample(sample, { source: 'report.csv', dialect: { lineEnding: 'CRLF' } });

/**
 * `mapping guess` over card numbers the bank masked in its own report (`546604XXXXXX4795`,
 * `371511XXXXX2097`, `XXX1234`, `•••• 1234`), under a header no vocabulary knows ("Account
 * Number"): the column is the card (card.last4 with `last4: true`), never the claim key or an id;
 * and with no network column, card.network comes from the masked numbers' first digits, as an
 * enum of the first digits seen, with a CHECK saying what was seen (docs/mappings.md, "Card
 * numbers masked by the bank").
 */

/** A Luhn-valid card number of `length` digits starting with `prefix`, varied by `seed`. */
function cardNumber(prefix: string, length: number, seed: number): string {
  const body = `${prefix}${String(seed).padStart(4, '0')}73591628407359`.slice(0, length - 1);
  for (let check = 0; check <= 9; check++) if (passesLuhn(`${body}${check}`)) return `${body}${check}`;
  throw new Error('unreachable');
}

/** First six, `X` for the rest, last four: as the bank's report writes it. */
const bankMasked = (digits: string, mask = 'X') =>
  `${digits.slice(0, 6)}${mask.repeat(digits.length - 10)}${digits.slice(-4)}`;

const arn = (n: number) => `55432863263204442${String(n).padStart(6, '0')}`;

interface Options {
  /** The card of each dispute, as the report writes it. */
  readonly card: (dispute: number) => string;
  readonly networkColumn?: boolean;
  readonly keyColumn?: boolean;
}

/** Disputes of one to three rows (the report repeats a dispute on identical lines), one card each. */
function report({ card, networkColumn = false, keyColumn = true }: Options): Sample {
  const columns = [
    'Account Number',
    ...(keyColumn ? ['Case Number'] : []),
    'Reason Code',
    ...(networkColumn ? ['Card Brand'] : []),
    'Currency',
    'Amount',
    'Transaction Date',
    'Acquirer Reference Number',
  ];
  const disputes = [1, 1, 1, 2, 3, 3, 4, 5];
  const rows = disputes.map((dispute) => {
    const cells = [
      card(dispute),
      ...(keyColumn ? [`CB-2026-${String(dispute).padStart(5, '0')}`] : []),
      'FR',
      ...(networkColumn ? ['MasterCard'] : []),
      'USD',
      `${dispute}.50`,
      '2026-03-15',
      arn(dispute),
    ];
    return Object.fromEntries(columns.map((column, position) => [column, cells[position] ?? '']));
  });
  return { columns, rows };
}

const mastercard = (dispute: number) => bankMasked(cardNumber('546604', 16, dispute));
const amex = (dispute: number) => bankMasked(cardNumber('371511', 15, dispute));

function noFullCardNumber(draft: Draft): void {
  expect(findCardNumbers(draft.yaml)).toEqual([]);
  expect(findCardNumbers(JSON.stringify(draft))).toEqual([]);
}

describe('mapping guess and card numbers masked by the bank', () => {
  it.each([
    ['first six and last four, X', mastercard],
    ['first six and last four, American Express', amex],
    [
      'first six and last four, *, in groups',
      (d: number) => bankMasked(cardNumber('4970', 16, d), '*').replace(/(.{4})(?=.)/g, '$1 '),
    ],
    ['the last four after X', (d: number) => `XXX${cardNumber('4970', 16, d).slice(-4)}`],
    ['the last four after x', (d: number) => `xxxx${cardNumber('4970', 16, d).slice(-4)}`],
    ['the last four after •, grouped', (d: number) => `•••• ${cardNumber('4970', 16, d).slice(-4)}`],
    ['the last four after a grouped mask', (d: number) => `XXXX-XXXX-XXXX-${cardNumber('4970', 16, d).slice(-4)}`],
    ['the last four after a full-length mask', (d: number) => `************${cardNumber('4970', 16, d).slice(-4)}`],
  ])('%s: the column is the card, card.last4 read with last4: true', (_how, card) => {
    const sample = report({ card, networkColumn: true });
    const draft = guess(sample);
    expect(draft.yaml).toContain('  card.last4: { column: "Account Number", required: true, last4: true }');
    expect(draft.yaml).toContain('"Account Number" holds card numbers (cardholder data)');
    expect(draft.decisions).toContainEqual({
      subject: 'shared.card.last4',
      decision: 'column "Account Number"',
      confidence: 'high',
    });
    expect(draft.todos.map((todo) => todo.field)).not.toContain('shared.card.last4');
    const mapping = parseMapping(draft.yaml, 'draft.yaml');
    expect(mapping.claim.key).toEqual(['Case Number']);
    // The network column names the network: nothing is derived from the card numbers.
    expect(mapping.shared['card.network']).toMatchObject({ column: 'Card Brand' });
    for (const row of sample.rows)
      expect(mapRow(row, mapping)).toMatchObject({
        ok: true,
        row: { shared: { card: { last4: (row['Account Number'] ?? '').slice(-4), network: 'mastercard' } } },
      });
    noFullCardNumber(draft);
  });

  it('is never the claim key nor an id, even when it is the only column that repeats per dispute', () => {
    const draft = guess(report({ card: mastercard, networkColumn: true, keyColumn: false }));
    const mapping = parseMapping(draft.yaml, 'draft.yaml');
    expect(mapping.claim.key).not.toContain('Account Number');
    expect(JSON.stringify(mapping.case)).not.toContain('Account Number');
    expect(draft.decisions.find(({ subject }) => subject === 'claim.key')?.decision).not.toBe('Account Number');
    expect(draft.yaml).toContain('  card.last4: { column: "Account Number", required: true, last4: true }');
  });
});

describe('card.network from the first digits of masked card numbers, when no column names the network', () => {
  it('one network: an enum of the first digits seen, with a CHECK saying what was seen', () => {
    const sample = report({ card: mastercard });
    // One issuer range, two card products: first six 546604 and 546605.
    const rows = sample.rows.map((row, index) =>
      index < 3 ? row : { ...row, 'Account Number': (row['Account Number'] ?? '').replace(/^546604/, '546605') },
    );
    const draft = guess({ ...sample, rows });
    expect(draft.yaml).toContain(
      '  card.network: { column: "Account Number", required: true, split: { separator: X, index: 0 }, enum: { "546604": mastercard, "546605": mastercard } }',
    );
    expect(draft.checks).toContainEqual(
      expect.objectContaining({
        field: 'shared.card.network',
        message:
          'card.network from the first digits of "Account Number": 5 sampled cards start 546605 (4, 16 digits): ' +
          'mastercard; 546604 (1, 16 digits): mastercard; a card whose first digits are not in this enum is refused ' +
          '(enum_unmapped) until its network is added',
      }),
    );
    expect(draft.todos.map((todo) => todo.field)).not.toContain('shared.card.network');
    expect(draft.decisions).toContainEqual({
      subject: 'shared.card.network',
      decision: 'column "Account Number"',
      confidence: 'medium',
    });
    const mapping = parseMapping(draft.yaml, 'draft.yaml');
    for (const row of rows)
      expect(mapRow(row, mapping)).toMatchObject({ ok: true, row: { shared: { card: { network: 'mastercard' } } } });
    // A card the sample did not show is refused, never sent under another card's network.
    const visa = { ...rows[0], 'Account Number': bankMasked(cardNumber('497010', 16, 9)) } as Record<string, string>;
    expect(mapRow(visa, mapping)).toMatchObject({
      ok: false,
      errors: [{ field: 'shared.card.network', code: 'enum_unmapped' }],
    });
    noFullCardNumber(draft);
  });

  it('whole card numbers: split where the import masks them, "*", and nothing of them quoted', () => {
    const sample = report({ card: (dispute) => cardNumber('546604', 16, dispute).replace(/(\d{4})(?=\d)/g, '$1 ') });
    const draft = guess(sample);
    const mapping = parseMapping(draft.yaml, 'draft.yaml');
    expect(mapping.shared['card.network']).toMatchObject({
      column: 'Account Number',
      split: { separator: '*', index: 0 },
      enum: { '546604': 'mastercard' },
    });
    noFullCardNumber(draft);
  });

  it('the one card of a report: "the one sampled card starts 546604 (16 digits): mastercard"', () => {
    const draft = guess(report({ card: () => '546604XXXXXX4795' }));
    expect(draft.checks.map(({ message }) => message)).toContainEqual(
      expect.stringContaining('the one sampled card starts 546604 (16 digits): mastercard'),
    );
  });

  it('networks mixed: one enum entry each, all of them in the CHECK', () => {
    const draft = guess(report({ card: (dispute) => (dispute % 2 === 0 ? amex(dispute) : mastercard(dispute)) }));
    const mapping = parseMapping(draft.yaml, 'draft.yaml');
    expect(mapping.shared['card.network']).toMatchObject({
      column: 'Account Number',
      split: { separator: 'X', index: 0 },
      enum: { '546604': 'mastercard', '371511': 'amex' },
    });
    expect(draft.checks.map(({ message }) => message)).toContainEqual(
      expect.stringContaining('5 sampled cards start 546604 (3, 16 digits): mastercard; 371511 (2, 15 digits): amex'),
    );
    for (const row of report({ card: (dispute) => (dispute % 2 === 0 ? amex(dispute) : mastercard(dispute)) }).rows)
      expect(mapRow(row, mapping)).toMatchObject({
        ok: true,
        row: { shared: { card: { network: (row['Account Number'] ?? '').startsWith('37') ? 'amex' : 'mastercard' } } },
      });
  });

  it('first digits in no issuer range: a TODO on their enum entry', () => {
    const draft = guess(report({ card: (dispute) => (dispute === 2 ? '999999XXXXXX1234' : mastercard(dispute)) }));
    expect(draft.todos).toContainEqual(
      expect.objectContaining({
        field: 'shared.card.network',
        message:
          'column "Account Number": write the card.network value of "999999" in its enum (first digits in no ' +
          "issuer range of the service's networks, at the length of their cards)",
      }),
    );
    expect(draft.yaml).toContain('enum: { "546604": mastercard, "999999": TODO }');
  });

  it('a network the service does not take (Maestro): a TODO on its entry, noting what its first digits say', () => {
    const draft = guess(
      report({ card: (dispute) => (dispute === 2 ? bankMasked(cardNumber('675941', 16, 2)) : mastercard(dispute)) }),
    );
    expect(draft.yaml).toContain(
      '      "675941": TODO         # maestro by its first digits: the service takes visa, mastercard, amex, discover',
    );
    expect(draft.yaml).toContain('      "546604": mastercard');
    expect(draft.todos.map(({ field }) => field)).toContain('shared.card.network');
  });

  it('masked with two characters in one column: a TODO naming what was seen', () => {
    const draft = guess(
      report({
        card: (dispute) => (dispute === 2 ? bankMasked(cardNumber('546604', 16, 2), '*') : mastercard(dispute)),
      }),
    );
    expect(draft.todos).toContainEqual(
      expect.objectContaining({
        field: 'shared.card.network',
        message:
          'column "Account Number": all 5 sampled cards start 546604 (16 digits): mastercard, but the cells mask ' +
          'with "X" and "*", which one split cannot take apart: write card.network\'s column, or a constant when ' +
          'every card is one network',
      }),
    );
    // The placeholder column stops the import at the header until a person decides.
    expect(parseMapping(draft.yaml, 'draft.yaml').shared['card.network']).toMatchObject({ column: 'TODO' });
  });

  it('some cells with their last four only: a TODO, the first digits seen named', () => {
    const draft = guess(report({ card: (dispute) => (dispute === 3 ? 'XXXXXXXXXXXX0012' : amex(dispute)) }));
    expect(draft.todos.find(({ field }) => field === 'shared.card.network')?.message).toBe(
      'column "Account Number": all 4 cards showing first digits start 371511 (15 digits): amex, but 2 of 8 ' +
        "sampled cells show none: write card.network's column, or a constant when every card is one network",
    );
  });

  it('the last four only: nothing tells the network, the usual TODO', () => {
    const draft = guess(report({ card: (dispute) => `XXX${cardNumber('4970', 16, dispute).slice(-4)}` }));
    expect(draft.todos.find(({ field }) => field === 'shared.card.network')?.message).toBe(
      'no card network column found: write its column, or { constant: visa } when every card is one network',
    );
  });
});

describe('a network column beside masked card numbers', () => {
  it('agreeing with their first digits: said in the evidence, no CHECK', () => {
    const draft = guess(report({ card: mastercard, networkColumn: true }));
    expect(draft.yaml).toContain(
      '#   the first digits of the card numbers in "Account Number" agree on all 8 sampled rows that show them (mastercard)',
    );
    expect(draft.checks.map(({ field }) => field)).not.toContain('shared.card.network');
  });

  it('naming another network than their first digits: a CHECK naming the rows, the column still mapped', () => {
    // The report says MasterCard on every row; dispute 3's card is an American Express one.
    const draft = guess(
      report({ card: (dispute) => (dispute === 3 ? amex(dispute) : mastercard(dispute)), networkColumn: true }),
    );
    expect(draft.checks).toContainEqual(
      expect.objectContaining({
        field: 'shared.card.network',
        message:
          'the first digits of the card numbers in "Account Number" name another network on 2 of 8 sampled rows ' +
          '(sampled row 5: "MasterCard" is mastercard, but 371511… (15 digits) is amex; sampled row 6: "MasterCard" ' +
          'is mastercard, but 371511… (15 digits) is amex): is "Card Brand" the card\'s network?',
      }),
    );
    expect(parseMapping(draft.yaml, 'draft.yaml').shared['card.network']).toMatchObject({ column: 'Card Brand' });
    expect(draft.decisions).toContainEqual({
      subject: 'shared.card.network',
      decision: 'column "Card Brand"',
      confidence: 'medium',
    });
  });
});
