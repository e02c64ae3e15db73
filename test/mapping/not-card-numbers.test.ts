import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCardNumbers } from '../../src/card-numbers/find.js';
import {
  cardNumberColumnsSkipped,
  checkNotCardNumbers,
  notCardNumberIssues,
} from '../../src/mapping/card-number-columns.js';
import { explainRow } from '../../src/mapping/explain.js';
import { MappingError, parseMapping } from '../../src/mapping/load.js';

/**
 * `not_card_numbers`: the per-column opt-out from the import's masking. Its names are checked
 * against the file's header (a misspelt one would opt out nothing and say nothing), the check names
 * the mapping file, the line and `not_card_numbers[i]`, and the import gets the header indexes to
 * leave unmasked.
 */

const genericText = await readFile(fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url)), 'utf8');
const header = ['dispute_ref', 'order_no', 'card_last4', 'Numéro de commande'];

/** The generic mapping with a `not_card_numbers` list before its file_mode line. */
function withList(list: string): string {
  return genericText.replace('file_mode: auto', `${list}\nfile_mode: auto`);
}

function mappingError(run: () => unknown): MappingError {
  try {
    run();
  } catch (error) {
    if (error instanceof MappingError) return error;
    throw error;
  }
  throw new Error('expected a MappingError, got none');
}

const lineOf = (text: string, fragment: string) => text.split('\n').findIndex((line) => line.includes(fragment)) + 1;

describe('not_card_numbers', () => {
  it('is optional: a mapping without it leaves every column masked', () => {
    const mapping = parseMapping(genericText, 'generic.yaml');
    expect(mapping.not_card_numbers).toBeUndefined();
    expect([...cardNumberColumnsSkipped(mapping, header)]).toEqual([]);
    expect(notCardNumberIssues(mapping, header)).toEqual([]);
  });

  it('gives the header indexes of its columns', () => {
    const mapping = parseMapping(withList('not_card_numbers: [order_no, "Numéro de commande"]'), 'm.yaml');
    checkNotCardNumbers('m.yaml', mapping, header);
    expect([...cardNumberColumnsSkipped(mapping, header)].sort()).toEqual([1, 3]);
  });

  it('refuses a name that is not a column of the file, naming the file, its line and not_card_numbers[i]', () => {
    const text = withList('not_card_numbers:\n  - order_no\n  - Order No');
    const mapping = parseMapping(text, 'm.yaml');
    const error = mappingError(() => {
      checkNotCardNumbers('m.yaml', mapping, header);
    });
    expect(error.message).toBe(
      `m.yaml:${lineOf(text, '  - Order No')}: not_card_numbers[1]: expected a column of the file, got "Order No" ` +
        '(the header has "dispute_ref", "order_no", "card_last4", "Numéro de commande")',
    );
    // Nothing is opted out for a name the header lacks: its cells stay masked.
    expect([...cardNumberColumnsSkipped(mapping, header)]).toEqual([1]);
  });

  it('keeps the lines on a mapping copied with another id prefix (as --id-prefix does)', () => {
    const text = withList('not_card_numbers: [nowhere]');
    const parsed = parseMapping(text, 'm.yaml');
    const copied = { ...parsed, claim: { ...parsed.claim, id_prefix: 'visa-2026' } };
    expect(notCardNumberIssues(copied, header)).toEqual([
      expect.objectContaining({ field: 'not_card_numbers[0]', line: lineOf(text, 'not_card_numbers') }),
    ]);
  });

  it.each([
    ['a blank name', 'not_card_numbers: [""]', 'not_card_numbers.0', 'expected string to have >=1 characters'],
    ['a name twice', 'not_card_numbers: [order_no, order_no]', 'not_card_numbers', 'expected each column once'],
    ['not a list', 'not_card_numbers: order_no', 'not_card_numbers', 'expected array'],
  ])('the schema refuses %s with its file and line', (_what, list, field, message) => {
    const error = mappingError(() => parseMapping(withList(list), 'm.yaml'));
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ field, line: lineOf(withList(list), 'not_card_numbers') });
    expect(error.issues[0]?.message).toContain(message);
  });

  it('mapping explain leaves its columns as the import does, and masks every other', () => {
    const mapping = parseMapping(
      withList('not_card_numbers: [order_no]').replace(
        'dispute_ref: { column: dispute_ref }',
        'dispute_ref: { column: dispute_ref }\n  order_no: { column: order_no }\n  note: { column: note }',
      ),
      'm.yaml',
    );
    const explanation = explainRow(
      { dispute_ref: 'D-1', order_no: '4970101000000012', note: 'card 4970101000000012' },
      mapping,
    );
    const valueOf = (field: string) => explanation.fields.find((explained) => explained.field === field)?.result;
    expect(valueOf('custom_fields.order_no')).toEqual({ ok: true, value: '4970101000000012' });
    expect(valueOf('custom_fields.note')).toEqual({ ok: true, value: 'card 497010******0012' });
    expect(
      findCardNumbers(JSON.stringify(explanation.fields.filter(({ field }) => field !== 'custom_fields.order_no'))),
    ).toEqual([]);
  });
});
