import { fileURLToPath } from 'node:url';
import { genericRow } from './generic-row.js';
import { describe, expect, it } from 'vitest';
import { findCardNumbers } from '../../src/card-numbers/find.js';
import { compileMapping } from '../../src/mapping/compile/index.js';
import { explainRow } from '../../src/mapping/explain.js';
import { fieldSpecSchema } from '../../src/mapping/field-spec.js';
import { loadMapping } from '../../src/mapping/load.js';
import { mapRow, type RowMapping } from '../../src/mapping/map-row.js';
import type { Mapping } from '../../src/mapping/schema.js';
import { lastFour } from '../../src/mapping/transforms/index.js';

/**
 * `last4: true`: card.last4 read from a card-number column, whole, in groups, masked as the import
 * masks it or as banks mask it (`546604XXXXXX4795`, `XXX1234`, `•••• 1234`), or its last four
 * alone, through mapRow and the compiled mapping alike; anything else a row error whose message
 * quotes the cell masked.
 */

const generic = await loadMapping(fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url)));
const mapping: Mapping = {
  ...generic,
  shared: {
    ...generic.shared,
    'card.last4': fieldSpecSchema.parse({ column: 'card_last4', required: true, last4: true }),
  },
};

/** A whole row of the generic export; the card-number cell is the one each test varies. */
const row = genericRow({ card_last4: '', receipt_file: '', correspondence_files: '' });

/** mapRow and the compiled mapping on the same cells: they must agree, and the answer is returned. */
function bothWays(cardCell: string): RowMapping {
  const cells = { ...row, card_last4: cardCell };
  const interpreted = mapRow(cells, mapping);
  expect(compileMapping(mapping, Object.keys(cells)).map(Object.values(cells))).toEqual(interpreted);
  return interpreted;
}

function lastFourSent(cardCell: string): unknown {
  const result = bothWays(cardCell);
  if (!result.ok) throw new Error(`expected a mapped row, got ${JSON.stringify(result.errors)}`);
  return (result.row.shared.card as Record<string, unknown>).last4;
}

describe('last4: true', () => {
  it.each([
    ['whole', '4970101000000012'],
    ['in groups of four', '4970 1010 0000 0012'],
    ['in groups with dashes', '4970-1010-0000-0012'],
    ['masked as the import masks it', '497010******0012'],
    ['masked and grouped', '4970 10** **** 0012'],
    ['with spaces around it', '  497010******0012 '],
    ['13 digits', '4222222222222'.slice(0, 9) + '0012'],
    ['19 digits, masked', '622126*********0012'],
    // Masked by the bank itself, first six and last four, in every mask character banks use.
    ['masked by the bank with X', '546604XXXXXX4795'],
    ['masked by the bank, American Express', '371511XXXXX2097'],
    ['masked with x', '546604xxxxxx4795'],
    ['masked with #', '546604######4795'],
    ['masked with •', '546604••••••4795'],
    ['masked with X, in groups', '5466 04XX XXXX 4795'],
    ['masked with X, dashes between groups', '5466-04XX-XXXX-4795'],
    ['masked showing the first four only', '5466XXXXXXXX4795'],
    ['masked with nothing shown before the last four', 'XXXXXXXXXXXX4795'],
    // The last four alone, after a mask standing for the rest.
    ['as its last four after X', 'XXX1234'],
    ['as its last four after x', 'xxxx1234'],
    ['as its last four after *, in groups', '**** 1234'],
    ['as its last four after •, in groups', '•••• 1234'],
    ['as its last four after a full-length mask', '************1234'],
    ['as its last four after a grouped mask', 'XXXX-XXXX-XXXX-1234'],
    ['as its last four after two mask characters', '**1234'],
    // A column of last four digits read with last4: true: the digits are the last four.
    ['as its last four digits alone', '0012'],
  ])('takes the last four digits of a card number %s', (_how, cell) => {
    expect(lastFourSent(cell)).toBe(cell.trim().slice(-4));
  });

  it.each([
    // Not `leading_zeros_dropped`: the column holds card numbers, and three digits are none.
    ['three digits', '123'],
    ['five digits', '12345'],
    ['four digits in two groups', '12-34'],
    ['four digits after one mask character (a number sign, an extension)', '#1234'],
    ['x and four digits (an extension)', 'x1234'],
    ['five digits after a mask', 'XXX12345'],
    ['three digits after a mask', 'XXXX123'],
    ['first digits and a mask, but too short for a card number', '5466XX4795'],
    ['a mask of two characters in one cell', '546604XX**XX4795'],
    ['two runs of mask', '5466XX04XXXX4795'],
    ['a mask longer than a card number', `${'X'.repeat(16)}1234`],
    ['other letters in place of digits', '546604YYYYYY4795'],
    ['12 digits', '497010**0012'],
    ['20 digits', '49701010000000120000'],
    ['masked at the end', '4970101000******'],
    ['letters', 'VISA ending 0012'],
    ['two separators in a row', '4970  1010 0000 0012'],
  ])('refuses %s with card_number_invalid', (_what, cell) => {
    const result = bothWays(cell);
    expect(result).toMatchObject({ ok: false, errors: [{ field: 'shared.card.last4', code: 'card_number_invalid' }] });
  });

  it('quotes a refused cell with any card number in it masked', () => {
    const cell = 'card 4970101000000012 twice';
    const result = bothWays(cell);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]?.message).toBe(
      'last4: expected a card number, whole or masked (13 to 19 digits, "X", "x", "*", "#" or "•" in place of ' +
        'hidden ones, e.g. "546604XXXXXX4795"), or its last four digits, alone or after a mask ("1234", "XXX1234", ' +
        '"**** 1234"), got "card 497010******0012 twice"',
    );
    expect(findCardNumbers(JSON.stringify(result.errors))).toEqual([]);
  });

  it('runs after required and before the type: a blank cell is still required_missing', () => {
    expect(bothWays('   ')).toMatchObject({
      ok: false,
      errors: [{ field: 'shared.card.last4', code: 'required_missing' }],
    });
  });

  it('is shown as its own step by mapping explain, on the cell masked', () => {
    const explanation = explainRow({ ...row, card_last4: '4970 1010 0000 0012' }, mapping);
    const field = explanation.fields.find(({ field: name }) => name === 'shared.card.last4');
    expect(field?.steps.map(({ step }) => step)).toEqual(['column', 'trim', 'required', 'last4']);
    expect(field?.result).toEqual({ ok: true, value: '0012' });
    expect(findCardNumbers(JSON.stringify(explanation))).toEqual([]);
  });

  it('is a transform of its own, pure', () => {
    expect(lastFour('5555 5555 5555 4444')).toEqual({ ok: true, value: '4444' });
    expect(lastFour('555555******4444')).toEqual({ ok: true, value: '4444' });
    expect(lastFour('')).toMatchObject({ ok: false, code: 'card_number_invalid' });
  });
});

describe('messages that quote a cell', () => {
  it('mask the card numbers in it, whatever the step', () => {
    const cells = {
      ...row,
      card_last4: '497010******0012',
      transaction_amount: 'card 4970 1010 0000 0012',
      arn: '4970-1010-0000-0012',
    };
    const result = mapRow(cells, mapping);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map(({ field }) => field)).toEqual(['case.transaction.amount', 'case.transaction.arn']);
    expect(result.errors[0]?.message).toContain('got "card 497010******0012"');
    expect(result.errors[1]?.message).toContain('got "497010******0012", with characters other than digits');
    expect(compileMapping(mapping, Object.keys(cells)).map(Object.values(cells))).toEqual(result);
  });
});
