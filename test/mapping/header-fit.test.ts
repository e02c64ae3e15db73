import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { checkHeaderFits, HeaderMismatchError } from '../../src/mapping/header-fit.js';
import { MappingError, parseMapping } from '../../src/mapping/load.js';
import { nearestColumn } from '../../src/mapping/nearest-column.js';
import { fieldColumns } from '../../src/mapping/columns-read.js';
import { genericColumns } from '../import/generate.js';

/** The header check's parts: the nearest name, optional_columns in the schema, the fit itself. */

const genericText = await readFile(new URL('../../mappings/generic.yaml', import.meta.url), 'utf8');
const generic = parseMapping(genericText, 'generic.yaml');
const source = { file: 'export.csv', mappingFile: 'generic.yaml', kind: 'export' } as const;

describe('nearestColumn', () => {
  it.each([
    [
      'the same once case, accents and punctuation fold',
      'Numéro de carte',
      ['Ref', 'NUMERO_DE_CARTE'],
      'NUMERO_DE_CARTE',
    ],
    ['a word added', 'Motif', ['Montant', 'Motif du litige'], 'Motif du litige'],
    ['a word added at the front', 'amount', ['Disputed amount', 'Currency'], 'Disputed amount'],
    ['a few letters apart', 'transaction_amount', ['transaction_amt', 'transaction_date2'], 'transaction_amt'],
    ['the folded match before a contained one', 'card_type', ['card type', 'card_type_code'], 'card type'],
  ])('%s', (_why, missing, candidates, expected) => {
    expect(nearestColumn(missing, candidates)).toBe(expected);
  });

  it.each([
    ['a name unlike any', 'Courriel', ['E-mail', 'Montant']],
    ['two letters inside a longer name are not a match', 'id', ['order_id_value']],
    ['no candidates', 'Motif', []],
  ])('none for %s', (_why, missing, candidates) => {
    expect(nearestColumn(missing, candidates)).toBeUndefined();
  });
});

describe('optional_columns in the mapping', () => {
  it('refuses a claim key column and a column the mapping does not read, naming the line', () => {
    const text = `${genericText}optional_columns: [dispute_ref, cardholder_emial]\n`;
    const line = text.split('\n').length - 1;
    expect(() => parseMapping(text, 'm.yaml')).toThrow(MappingError);
    expect(() => parseMapping(text, 'm.yaml')).toThrow(
      `m.yaml:${line}: optional_columns.0: expected a column other than the claim key's, got "dispute_ref"\n` +
        `m.yaml:${line}: optional_columns.1: expected a column the mapping reads, got "cardholder_emial", which it does not`,
    );
  });
});

describe('checkHeaderFits', () => {
  it('a header with every column fits, naming the ones the mapping leaves aside', () => {
    expect(checkHeaderFits(generic, [...genericColumns, 'branch'], source)).toEqual({
      mapped: 22,
      absentOptional: [],
      unnamed: ['branch'],
    });
  });

  it('an absent optional column fits', () => {
    const mapping = parseMapping(`${genericText}optional_columns: [cardholder_email]\n`, 'm.yaml');
    const header = genericColumns.filter((column) => column !== 'cardholder_email');
    expect(checkHeaderFits(mapping, header, source).absentOptional).toEqual(['cardholder_email']);
  });

  it('a template placeholder and an evidence column are columns the mapping reads', () => {
    const header = genericColumns.filter((column) => column !== 'transaction_ref' && column !== 'receipt_file');
    const error = catchMismatch(() => checkHeaderFits(generic, header, source));
    expect(error.reason).toBe('missing');
    expect(error.message).toContain(
      `the mapping's column "transaction_ref" (case.case_id) is not in the export's header`,
    );
    expect(error.message).toContain(
      `the mapping's column "receipt_file" (evidence.receipt_file) is not in the export's header`,
    );
  });

  it("an amount's sign column is a column the mapping reads: required, optional when listed, an error_field's cell", () => {
    const signed = genericText.replace(
      'amount: { currency_field: dispute.currency, decimal_separator: "." }',
      'amount: { currency_field: dispute.currency, decimal_separator: ".", negative: magnitude, ' +
        'sign_column: { column: "Debit Credit", negative: [D], positive: [C] } }',
    );
    expect(signed).not.toBe(genericText);
    const mapping = parseMapping(signed, 'm.yaml');
    expect(fieldColumns(mapping)['case.dispute.amount']).toEqual(['disputed_amount', 'Debit Credit']);
    const error = catchMismatch(() => checkHeaderFits(mapping, genericColumns, source));
    expect(error.message).toContain(
      `the mapping's column "Debit Credit" (case.dispute.amount) is not in the export's header`,
    );
    expect(checkHeaderFits(mapping, [...genericColumns, 'Debit Credit'], source).unnamed).toEqual([]);
    const optional = parseMapping(`${signed}optional_columns: ["Debit Credit"]\n`, 'm.yaml');
    expect(checkHeaderFits(optional, genericColumns, source).absentOptional).toEqual(['Debit Credit']);
  });

  it('a header without a csv header line suggests nothing: its names are numbers', () => {
    const numbered = parseMapping(
      genericText.replace('header: true', 'header: false').replace('key: [dispute_ref]', 'key: ["1"]'),
      'm.yaml',
    );
    const error = catchMismatch(() => checkHeaderFits(numbered, ['1', '2', '3'], source));
    expect(error.message).not.toContain('did you mean');
  });

  it('a column mapping guess left TODO is named as the placeholder it is, not as a renamed column', () => {
    const draft = parseMapping(genericText.replace('column: reason_code', 'column: TODO'), 'draft.yaml');
    const error = catchMismatch(() => checkHeaderFits(draft, [...genericColumns, 'Todo list'], source));
    expect(error.message).toContain(
      `the mapping's column "TODO" (shared.dispute.reason) is a placeholder mapping guess left: write the export's column in its place`,
    );
    expect(error.message).not.toContain('did you mean');
  });

  it('masks a card number a header name holds', () => {
    const header = [...genericColumns.filter((column) => column !== 'arn'), '4970101000000012'];
    const error = catchMismatch(() => checkHeaderFits(generic, header, source));
    expect(error.message).toContain('"497010******0012"');
    expect(error.message).not.toContain('4970101000000012');
  });
});

function catchMismatch(run: () => unknown): HeaderMismatchError {
  try {
    run();
  } catch (error) {
    if (error instanceof HeaderMismatchError) return error;
    throw error;
  }
  throw new Error('expected a HeaderMismatchError, got none');
}
