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
 * `last4: true`: card.last4 read from a card-number column, whole, in groups or masked as the
 * import masks it, through mapRow and the compiled mapping alike; anything else a row error whose
 * message quotes the cell masked.
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
  ])('takes the last four digits of a card number %s', (_how, cell) => {
    expect(lastFourSent(cell)).toBe(cell.trim().slice(-4));
  });

  it.each([
    ['four digits', '0012'],
    // Not `leading_zeros_dropped`: the column holds card numbers, and three digits are none.
    ['three digits', '123'],
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
      'last4: expected a card number (13 to 19 digits, whole or masked), got "card 497010******0012 twice"',
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
