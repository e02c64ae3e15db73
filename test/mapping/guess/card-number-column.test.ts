import { describe, expect, it } from 'vitest';
import { findCardNumbers } from '../../../src/card-numbers/find.js';
import { passesLuhn } from '../../../src/card-numbers/networks.js';
import type { Draft } from '../../../src/mapping/guess/guess-mapping.js';
import type { Sample } from '../../../src/mapping/guess/types.js';
import { parseMapping } from '../../../src/mapping/load.js';
import { mapRow } from '../../../src/mapping/map-row.js';
import { guessSample } from './guess-sample.js';

/**
 * A card-number column in `mapping guess`: found by its cells (whole, grouped or masked card
 * numbers) or by its header in every language guess knows; card.last4 read from it with
 * `last4: true` when no last-four column exists, else left alone; noted as cardholder data; never a
 * key, an id or free text; and no full card number quoted anywhere in the draft.
 */

const guess = (sample: Sample): Draft => guessSample(sample);

function cardNumber(seed: number): string {
  const body = `4970${String(seed).padStart(4, '0')}7359162`;
  for (let check = 0; check <= 9; check++) if (passesLuhn(`${body}${check}`)) return `${body}${check}`;
  throw new Error('unreachable');
}

const arn = (n: number) => `74492156302000184${String(n).padStart(6, '0')}`;
const grouped = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

/** Disputes of one or two rows, one card each; `cards` writes a dispute's card number as the column holds it. */
function sampleWith(cardColumn: string, cards: (digits: string) => string, lastFour = false): Sample {
  const columns = [
    'dispute_ref',
    'reason_code',
    'card_network',
    ...(lastFour ? ['card_last4'] : []),
    cardColumn,
    'currency',
    'transaction_amount',
    'transaction_date',
    'arn',
  ];
  const disputes = [1, 1, 2, 3, 3, 4];
  const rows = disputes.map((dispute, index) => {
    const digits = cardNumber(dispute);
    const cells = [
      `D-${dispute}`,
      'FR',
      'VISA',
      ...(lastFour ? [digits.slice(-4)] : []),
      cards(digits),
      'EUR',
      '12.50',
      '2026-03-15',
      arn(index),
    ];
    return Object.fromEntries(columns.map((column, position) => [column, cells[position] ?? '']));
  });
  return { columns, rows };
}

function noFullCardNumber(draft: Draft): void {
  expect(findCardNumbers(draft.yaml)).toEqual([]);
  expect(findCardNumbers(JSON.stringify(draft))).toEqual([]);
}

describe('mapping guess and a card-number column', () => {
  it.each([
    ['whole', (digits: string) => digits],
    ['in groups', grouped],
    ['with dashes', (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1-')],
    ['masked', (digits: string) => `${digits.slice(0, 6)}******${digits.slice(-4)}`],
  ])('by its cells (%s) under a header no vocabulary knows: card.last4 from it, no TODO', (_how, cards) => {
    const sample = sampleWith('Kontodaten', cards);
    const draft = guess(sample);
    expect(draft.yaml).toContain('  card.last4: { column: Kontodaten, required: true, last4: true }');
    expect(draft.yaml).toContain('"Kontodaten" holds card numbers (cardholder data)');
    expect(draft.todos.map((todo) => todo.field)).not.toContain('shared.card.last4');
    expect(draft.decisions).toContainEqual({
      subject: 'shared.card.last4',
      decision: 'column "Kontodaten"',
      confidence: 'high',
    });
    noFullCardNumber(draft);
    // The draft maps the rows as the import hands them over (masked) and as the file has them.
    const mapping = parseMapping(draft.yaml, 'draft.yaml');
    for (const row of sample.rows)
      expect(mapRow(row, mapping)).toMatchObject({
        ok: true,
        row: { shared: { card: { last4: (row.Kontodaten ?? '').slice(-4) } } },
      });
  });

  it.each([
    'card number',
    'Card No',
    'PAN',
    'Kartennummer',
    'Numéro de carte',
    'Número de tarjeta',
    'Numero carta',
    'Kaartnummer',
    'Número do cartão',
  ])('by its header %j, over numbers masked otherwise than the import masks them', (header) => {
    const draft = guess(sampleWith(header, (digits) => `************${digits.slice(-4)}`));
    expect(parseMapping(draft.yaml, 'draft.yaml').shared['card.last4']).toMatchObject({ column: header, last4: true });
    expect(draft.yaml).toContain('holds card numbers (cardholder data)');
    expect(draft.todos.map((todo) => todo.field)).not.toContain('shared.card.last4');
  });

  it('keeps a last-four column, notes the card-number column as cardholder data and maps nothing from it', () => {
    const draft = guess(sampleWith('Numéro de carte', grouped, true));
    expect(draft.yaml).toContain('  card.last4: { column: card_last4');
    expect(draft.yaml).toContain(
      '# "Numéro de carte" holds card numbers (cardholder data): the import masks them before the row is kept or sent; ' +
        'nothing of it is sent (card.last4 reads "card_last4")',
    );
    const mapping = parseMapping(draft.yaml, 'draft.yaml');
    expect(JSON.stringify(mapping)).not.toContain('Numéro de carte');
    expect(draft.unplaced.map(({ column }) => column)).not.toContain('Numéro de carte');
    noFullCardNumber(draft);
  });

  it('is never the claim key, even when it is the only column whose values repeat per dispute', () => {
    const sample = sampleWith('Reference', grouped);
    const withoutKey: Sample = {
      columns: sample.columns.filter((column) => column !== 'dispute_ref'),
      rows: sample.rows.map(({ dispute_ref: _key, ...rest }) => rest),
    };
    const draft = guess(withoutKey);
    const mapping = parseMapping(draft.yaml, 'draft.yaml');
    expect(mapping.claim.key).not.toContain('Reference');
    expect(mapping.case.case_id).toBeUndefined();
    expect(draft.yaml).toContain('  card.last4: { column: Reference, required: true, last4: true }');
    noFullCardNumber(draft);
  });

  it('a header naming card numbers over values that are none is noted, not mapped from', () => {
    const draft = guess(sampleWith('Card number', () => 'pending'));
    expect(draft.yaml).not.toContain('column: "Card number"');
    expect(draft.unplaced).toContainEqual({
      column: 'Card number',
      note: 'codes "pending" (6); its header names card numbers, but its values are none',
    });
  });
});

it('guess quotes no full card number from any column, free text included', () => {
  const sample = sampleWith('card_last4', (digits) => digits.slice(-4));
  const withNotes: Sample = {
    columns: [...sample.columns, 'notes'],
    rows: sample.rows.map((row, index) => ({ ...row, notes: `customer read out ${grouped(cardNumber(index + 10))}` })),
  };
  const draft = guess(withNotes);
  expect(draft.unplaced.find(({ column }) => column === 'notes')?.note).toContain('customer read out 497000******');
  noFullCardNumber(draft);
});
