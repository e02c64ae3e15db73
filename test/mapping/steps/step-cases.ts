import { expect } from 'vitest';
import { csvDialectSchema } from '../../../src/csv/dialect.js';
import { compileMapping } from '../../../src/mapping/compile/index.js';
import { fieldSpecSchema, type FieldSpec } from '../../../src/mapping/field-spec.js';
import { mapRow } from '../../../src/mapping/map-row.js';
import type { Mapping } from '../../../src/mapping/schema.js';
import type { TableStepName } from '../../../src/mapping/steps/index.js';

/**
 * Cases for every step of the table (src/mapping/steps/index.ts), each mapped interpreted (mapRow)
 * and compiled (compileMapping): rows that make the step succeed and, where it can, fail. The
 * architecture test holds the two equal on every step with them (test/docs/architecture.test.ts).
 */

/** The field every case maps: a plain text target, which no identifier check reads. */
const field = 'shared.cardholder.name';

export interface StepCase {
  /** The field's spec as a mapping writes it (the schema fills in the defaults). */
  spec: Record<string, unknown>;
  /** Other fields of the mapping, by target (an amount's currency_field). */
  others?: Partial<Record<'shared' | 'case', Record<string, Record<string, unknown>>>>;
  /** The rows' cells; the header is every column they name (a column none names is one the file lacks). */
  rows: Record<string, string>[];
}

const sign = { column: 's', negative: ['D', '-'], positive: ['C', '+'] };

export const stepCases: Record<TableStepName, StepCase[]> = {
  column: [
    { spec: { column: 'a' }, rows: [{ a: 'x' }, { a: '' }, { a: ' y ' }] },
    { spec: { column: 'gone', required: true }, rows: [{ a: 'x' }] },
  ],
  template: [
    {
      spec: { template: 'T-{a}/{b}' },
      rows: [
        { a: ' 1 ', b: '2' },
        { a: '', b: '' },
      ],
    },
    {
      spec: { template: '{a}{b}', required: true },
      rows: [
        { a: ' ', b: '' },
        { a: 'x', b: 'y' },
      ],
    },
    { spec: { template: '{a}-{gone}-{lost}' }, rows: [{ a: 'x' }] },
  ],
  constant: [
    { spec: { constant: 'fixed' }, rows: [{ a: 'x' }] },
    { spec: { constant: 12, type: 'integer' }, rows: [{ a: 'x' }] },
    { spec: { constant: ' ', required: true }, rows: [{ a: 'x' }] },
    // A constant read with a sign column reads the row: the compiled code runs its steps.
    {
      spec: {
        constant: '1.50',
        type: 'amount',
        amount: { currency: 'USD', decimal_separator: '.', sign_column: sign },
      },
      rows: [{ s: 'D' }, { s: 'C' }, { s: '?' }],
    },
  ],
  trim: [{ spec: { column: 'a' }, rows: [{ a: ' x ' }, { a: '   ' }] }],
  default: [
    { spec: { column: 'a', default: 'dflt' }, rows: [{ a: '' }, { a: '  ' }, { a: 'v' }] },
    { spec: { column: 'a', default: '', required: true }, rows: [{ a: '' }] },
    { spec: { column: 'a', trim: false, default: 'd' }, rows: [{ a: ' ' }, { a: '' }] },
  ],
  required: [
    { spec: { column: 'a', trim: false, required: true }, rows: [{ a: ' x ' }, { a: ' ' }, { a: '' }] },
    { spec: { column: 'a', required: true }, rows: [{ a: '' }, { a: 'v' }] },
    { spec: { template: 'x{a}', required: true }, rows: [{ a: '' }] },
  ],
  last4: [
    {
      spec: { column: 'a', last4: true },
      rows: [{ a: '4970101000000012' }, { a: '497010******0012' }, { a: '1234' }, { a: 'junk' }, { a: '' }],
    },
  ],
  split: [
    {
      spec: { column: 'a', split: { separator: '/', index: 1 } },
      rows: [{ a: '12/28' }, { a: '12 / 28 ' }, { a: '12' }],
    },
  ],
  case: [
    { spec: { column: 'a', case: 'upper' }, rows: [{ a: 'fr' }, { a: 'Fr' }] },
    { spec: { column: 'a', case: 'lower' }, rows: [{ a: 'FR' }] },
  ],
  enum: [
    {
      spec: { column: 'a', enum: { FR: 'fraud', NR: 'product_not_received' } },
      rows: [{ a: 'FR' }, { a: 'fr' }, { a: 'X' }],
    },
    {
      spec: { column: 'a', enum: { FR: 'fraud' }, enum_case_sensitive: false },
      rows: [{ a: 'fr' }, { a: 'constructor' }],
    },
    { spec: { column: 'a', enum: { FR: 'fraud', fr: 'other' }, enum_case_sensitive: false }, rows: [{ a: 'fr' }] },
  ],
  integer: [{ spec: { column: 'a', type: 'integer' }, rows: [{ a: '12' }, { a: '1.5' }, { a: '99999999999999999' }] }],
  boolean: [{ spec: { column: 'a', type: 'boolean' }, rows: [{ a: 'yes' }, { a: 'N' }, { a: 'maybe' }] }],
  year: [
    { spec: { column: 'a', type: 'year' }, rows: [{ a: '28' }, { a: '2028' }, { a: '1' }] },
    { spec: { column: 'a', type: 'year', year: { two_digit_window_start: 1950 } }, rows: [{ a: '49' }, { a: '50' }] },
  ],
  amount: [
    {
      spec: { column: 'a', type: 'amount', amount: { currency: 'USD', decimal_separator: ',', group_separator: '.' } },
      rows: [{ a: '1.234,56' }, { a: '-1' }, { a: '12,345' }, { a: 'x' }],
    },
    {
      spec: { column: 'a', type: 'amount', amount: { currency_field: 'transaction.currency', decimal_separator: '.' } },
      others: { case: { 'transaction.currency': { column: 'cur' } } },
      rows: [
        { a: '1.00', cur: 'USD' },
        { a: '1', cur: 'JPY' },
        { a: '1.5', cur: 'JPY' },
        { a: '1.00', cur: '' },
        { a: '1.00', cur: 'usd' },
        { a: '1.00', cur: 'XAU' },
      ],
    },
    {
      spec: { column: 'a', type: 'amount', amount: { currency_field: 'nowhere', decimal_separator: '.' } },
      rows: [{ a: '1.00' }],
    },
    {
      spec: {
        column: 'a',
        type: 'amount',
        amount: { currency_field: 'dispute.currency', implied_decimals: 2, negative: 'magnitude', sign_column: sign },
      },
      others: { shared: { 'dispute.currency': { column: 'cur' } } },
      rows: [
        { a: '000000001235', cur: 'EUR', s: 'D' },
        { a: '000000001235-', cur: 'EUR', s: 'C' },
        { a: '000000001235', cur: 'EUR', s: 'x' },
        { a: '12.35', cur: 'EUR', s: '+' },
        { a: '000000001235', cur: '', s: 'x' },
      ],
    },
    {
      spec: {
        column: 'a',
        type: 'amount',
        amount: { currency: 'EUR', decimal_separator: '.', sign_column: { ...sign, column: 'gone' } },
      },
      rows: [{ a: '1.00' }],
    },
  ],
  date: [
    {
      spec: { column: 'a', type: 'date', date: { format: 'yyyy-MM-dd' } },
      rows: [{ a: '2026-03-15' }, { a: '2026-02-30' }, { a: '46021' }, { a: 'x' }],
    },
    {
      spec: { column: 'a', type: 'date', date: { format: 'yyyy-MM-dd HH:mm', time_zone: 'Europe/Berlin' } },
      rows: [{ a: '2026-03-29 02:30' }, { a: '2026-03-15 10:00' }, { a: '00:00.0' }],
    },
    {
      spec: { column: 'a', type: 'date', date: { format: 'iso', time_zone: 'Not/A_Zone' } },
      rows: [{ a: '2026-03-15T10:00' }],
    },
  ],
};

function mappingOf(spec: FieldSpec, others: StepCase['others'] = {}): Mapping {
  const parsed = (fields: Record<string, Record<string, unknown>> = {}) =>
    Object.fromEntries(Object.entries(fields).map(([target, raw]) => [target, fieldSpecSchema.parse(raw)]));
  return {
    csv: csvDialectSchema.parse({}),
    claim: { key: ['k'], id: undefined, id_prefix: undefined },
    shared: { ...parsed(others.shared), 'cardholder.name': spec },
    case: parsed(others.case),
    custom_fields: {},
    evidence: [],
    file_mode: 'auto',
  };
}

export interface Seen {
  ok: number;
  failed: number;
}

/** Maps each row both ways, expects the same answer, and tells what the case's step gave on each. */
export function compareStep(name: TableStepName, stepCase: StepCase): Seen {
  const spec = fieldSpecSchema.parse(stepCase.spec);
  const mapping = mappingOf(spec, stepCase.others);
  const header = [...new Set(['k', ...stepCase.rows.flatMap((cells) => Object.keys(cells))])];
  const compiled = compileMapping(mapping, header);
  const seen: Seen = { ok: 0, failed: 0 };
  for (const row of stepCase.rows) {
    const raw = header.map((column) => (column === 'k' ? 'K-1' : (row[column] ?? '')));
    const cells = Object.fromEntries(header.map((column, position) => [column, raw[position] ?? '']));
    const expected = mapRow(cells, mapping, {
      onField: (evaluation) => {
        if (evaluation.field !== field) return;
        for (const { step, result } of evaluation.steps) if (step === name) seen[result.ok ? 'ok' : 'failed']++;
      },
    });
    const got = compiled.map(raw);
    expect(got, `${name}: ${JSON.stringify(stepCase.spec)} on ${JSON.stringify(row)}`).toStrictEqual(expected);
    expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
  }
  return seen;
}

/** The steps that cannot fail: a constant, trim, a default and a case change always give a text. */
export const neverFails: ReadonlySet<TableStepName> = new Set(['constant', 'trim', 'default', 'case']);
