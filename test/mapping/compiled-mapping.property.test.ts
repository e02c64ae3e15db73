import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileCategories } from '../../src/api/schemas/known-values.js';
import { csvDialectSchema } from '../../src/csv/dialect.js';
import { compileMapping } from '../../src/mapping/compile/index.js';
import { fieldSpecSchema, type FieldSpec } from '../../src/mapping/field-spec.js';
import { claimKeyValues, mapRow } from '../../src/mapping/map-row.js';
import type { Mapping } from '../../src/mapping/schema.js';
import { caseTargets, sharedTargets } from '../../src/mapping/targets.js';

/**
 * The compiled mapping against the interpreter it must equal: random mappings built from the
 * mapping schema's own pieces (every source, step, type and option of field-spec.ts, custom fields,
 * evidence, claim keys, id prefixes) over random rows (blank cells, junk, amounts, dates,
 * currencies, formula-looking text, spreadsheet damage, columns the file lacks). Every value,
 * error, error order and key order must be the same.
 */

/** Column names, some the header will lack, some unkind to generated code or to plain objects. */
const columnPool = [
  'ref',
  'txn',
  'amount',
  'currency',
  'date',
  'network',
  'last4',
  'reason',
  'arn',
  'expiry',
  'flag',
  'files',
  'Col With Space',
  'quote"col',
  'brace{x}',
  "back\\slash'",
  '*/ }) //',
  'constructor',
  '__proto__',
];
const columnArbitrary = fc.constantFrom(...columnPool, 'not-in-any-file');

const cellArbitrary = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      ...[
        '',
        ' ',
        '  x  ',
        'FR',
        'fr',
        'NR',
        'visa',
        'VISA',
        'mastercard',
        'amex',
        'usd',
        'USD',
        'JPY',
        'KWD',
        'XAU',
        'EUR',
        'ABC',
      ],
      ...[
        '12.34',
        '1,234.56',
        '1.234,56',
        '1 234,56',
        '0.5',
        '12.345',
        '-5',
        '(5)',
        '9999999999999999999',
        '1.50000000',
        '-435.52000000',
        '1.50-',
        '\u22121.50',
        '(1.50)',
        'D',
        'C',
        '+',
        '-',
        '12',
        '2026',
        '28',
        '9',
        '12/28',
        '09/2028',
        '1/2/3',
        // Fixed-width amounts: implied decimals, zero-padded, signed or not.
        '000000001235',
        '000000123400',
        '000000001235-',
        '-000000012345',
        '0000000000000000000001',
      ],
      ...[
        '2026-03-15',
        '15.03.2026',
        '03/15/2026',
        '2026-02-30',
        '2026-03-29 02:30',
        '2026-03-15 10:00',
        '2026-10-18T21:14:05Z',
        '15 Mar 2026',
        '46021',
        '46021,5',
        '20240703',
        '240703',
        '20240230',
        '00:00.0',
        '12:34.5',
        '2017141',
        '2017366',
        '2016366',
        '17141',
      ],
      ...[
        '1.48792E+22',
        '7,78563E+22',
        '994268.00000',
        '994268,00',
        '0123',
        '123',
        '4242',
        '74492156302000184736251',
        '7449215630200020000000',
        'yes',
        'no',
        'Y',
        'true',
        '0',
        '1',
      ],
      ...[
        '=1+2',
        '+1',
        '@sum',
        '-3',
        "'=x",
        'a.pdf',
        ' a.pdf; b.pdf;; ',
        ';',
        'constructor',
        '__proto__',
        'CLM-1',
        '{ref}',
      ],
      // Card numbers as last4 reads them (whole, grouped, masked) and near misses.
      ...['4970101000000012', '4970 1010 0000 0012', '4970-1010-0000-0012', '497010******0012', '497010******001X'],
      ...['4970 1010 0000 0012 9999 9', '123456789012', ' 497010******0012 ', '4970  1010 0000 0012'],
    ),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[0-9 .,/-]{1,10}$/) },
);

/** Mostly absent, as most fields of a mapping use few of the steps. */
const optional = <Value>(arbitrary: fc.Arbitrary<Value>) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
const separators = {
  // What a negative means, and a sign from another column (a column the file may lack).
  negative: optional(fc.constantFrom('refuse', 'magnitude')),
  sign_column: optional(
    fc.record({
      column: columnArbitrary,
      negative: fc.constantFrom(['-', 'D'], ['D']),
      positive: fc.constantFrom(['+', 'C'], ['C', '']),
    }),
  ),
};

/** A decimal separator (and grouping), or the implied decimals of a fixed-width file. */
const decimals = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      decimal_separator: fc.constantFrom('.', ','),
      group_separator: fc.constantFrom(',', '.', ' ', "'", ''),
    }),
  },
  { weight: 1, arbitrary: fc.record({ implied_decimals: fc.constantFrom(0, 2, 3, 5) }) },
);

const stepsArbitrary = fc.record({
  trim: fc.boolean(),
  default: optional(fc.constantFrom('', ' ', 'x', 'no', 'USD', '12', 'FR', '2026-01-02')),
  required: fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: 3, arbitrary: fc.constant(false) }),
  last4: optional(fc.boolean()),
  split: optional(fc.record({ separator: fc.constantFrom('/', '-', ';', '.'), index: fc.integer({ min: 0, max: 2 }) })),
  case: optional(fc.constantFrom('upper', 'lower')),
  enum: optional(
    fc.dictionary(
      fc.constantFrom('FR', 'fr', 'NR', 'visa', 'VISA', 'x', 'constructor', '12'),
      fc.constantFrom('fraud', 'other', 'visa', 'USD', '7'),
      { maxKeys: 4 },
    ),
  ),
  enum_case_sensitive: fc.boolean(),
});

const typeArbitrary = fc.oneof(
  { weight: 8, arbitrary: fc.constant({ type: 'string' }) },
  { weight: 1, arbitrary: fc.constant({ type: 'integer' }) },
  { weight: 1, arbitrary: fc.constant({ type: 'boolean' }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('year'),
      year: optional(fc.record({ two_digit_window_start: fc.constantFrom(1950, 2000, 1000, 9900) })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('date'),
      date: fc.record({
        format: fc.constantFrom(
          'yyyy-MM-dd',
          'yyyyMMdd',
          'yyMMdd',
          'dd.MM.yyyy',
          'MM/dd/yyyy',
          'yyyy-MM-dd HH:mm',
          "yyyy-MM-dd'T'HH:mm:ss'Z'",
          'dd MMM yyyy',
          'MM-dd',
          'yyyyDDD',
          'yyDDD',
          'yyyyooo',
        ),
        time_zone: fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Not/A_Zone'),
      }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('amount'),
      amount: fc
        .tuple(
          fc.oneof(
            fc.record({ currency: fc.constantFrom('USD', 'JPY', 'KWD', 'XAU', 'ABC'), ...separators }),
            fc.record({
              currency_field: fc.constantFrom(
                'transaction.currency',
                'dispute.currency',
                'card.network',
                'transaction.amount',
                'nowhere',
              ),
              ...separators,
            }),
          ),
          decimals,
        )
        .map(([amount, written]) => ({ ...amount, ...written })),
    }),
  },
);

/** Targets that matter to the mapping's rules (fixed widths, identifiers, ARN, currencies), and some of each section. */
const sharedChoice = [
  'card.last4',
  'card.network',
  'card.type',
  'card.expiry_year',
  'cardholder.name',
  'dispute.reason',
  'dispute.date',
  'issuer_evidence.card.is_active',
  'issuer_evidence.amount_correction.amount',
  'issuer_evidence.amount_correction.currency',
  'issuer_evidence.product.order_id',
];
const caseChoice = [
  'case_id',
  'program_id',
  'dispute.amount',
  'dispute.currency',
  'merchant.category_code',
  'transaction.amount',
  'transaction.currency',
  'transaction.date',
  'transaction.arn',
  'transaction.network_details.mastercard.switch_serial_number',
];

/**
 * Mappings over a header: most columns they read are the header's (so that rows can map), some
 * are not (a column the file lacks is an error of its own).
 */
function mappingOver(header: readonly string[]): fc.Arbitrary<Mapping> {
  const column = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...header) },
    { weight: 1, arbitrary: columnArbitrary },
  );
  const template = fc
    .array(
      fc.oneof(
        fc.constantFrom('CLM-', '-', ' ', '{', '}', '/'),
        column.map((name) => `{${name}}`),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((parts) => parts.join(''));
  const source = fc.oneof(
    { weight: 6, arbitrary: fc.record({ column }) },
    { weight: 2, arbitrary: fc.record({ template }) },
    {
      weight: 1,
      arbitrary: fc.record({
        constant: fc.oneof(
          fc.constantFrom('', ' ', 'individual', 'USD', '12.50', '2026-01-02', 'FR', '1.5E+3'),
          fc.integer({ min: -5, max: 3000 }),
          fc.boolean(),
        ),
      }),
    },
  );
  // A field spec as the mapping schema reads it (defaults filled in), from its schema's pieces.
  const spec: fc.Arbitrary<FieldSpec> = fc
    .tuple(source, stepsArbitrary, typeArbitrary)
    .map(([from, steps, type]) => fieldSpecSchema.parse({ ...from, ...steps, ...type }));
  const section = (targets: readonly string[]) =>
    fc
      .uniqueArray(fc.constantFrom(...targets), { maxLength: 6 })
      .chain((chosen) =>
        fc
          .tuple(...chosen.map((target) => spec.map((made) => [target, made] as const)))
          .map((entries) => Object.fromEntries(entries)),
      );
  return fc
    .record({
      key: fc.uniqueArray(column, { minLength: 1, maxLength: 2 }),
      id: optional(spec),
      idPrefix: optional(fc.constantFrom('visa-2026', 'A', 'x.y_z')),
      shared: section(sharedChoice),
      case: section(caseChoice),
      custom: fc.uniqueArray(fc.tuple(fc.constantFrom('ref', 'note', 'constructor', '__proto__', 'toString'), spec), {
        maxLength: 3,
        selector: ([name]) => name,
      }),
      evidence: fc.array(
        fc.record({
          column,
          category: fc.constantFrom(...fileCategories.slice(0, 3)),
          separator: optional(fc.constantFrom(';', ',')),
        }),
        { maxLength: 2 },
      ),
    })
    .map(({ key, id, idPrefix, shared, case: caseFields, custom, evidence }) => ({
      csv: csvDialectSchema.parse({}),
      claim: { key, id, id_prefix: idPrefix },
      shared,
      case: caseFields,
      custom_fields: Object.fromEntries(custom),
      evidence,
      file_mode: 'auto' as const,
    }));
}

/**
 * Rows for a mapping: most cells blank (an optional field left out), key cells mostly filled; and
 * one row with only its key, which maps whenever the mapping needs nothing else.
 */
function rowsFor(header: readonly string[], mapping: Mapping): fc.Arbitrary<string[][]> {
  const isKey = (column: string) => mapping.claim.key.includes(column);
  const keyCell = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom('D-1', 'D-2', ' 7 ') },
    { weight: 1, arbitrary: cellArbitrary },
  );
  const otherCell = fc.oneof({ weight: 2, arbitrary: fc.constant('') }, { weight: 1, arbitrary: cellArbitrary });
  const row = fc.tuple(...header.map((column) => (isKey(column) ? keyCell : otherCell)));
  const keyOnly = header.map((column) => (isKey(column) ? 'D-9' : ''));
  return fc.array(row, { minLength: 1, maxLength: 12 }).map((rows) => [...rows, keyOnly]);
}

const caseArbitrary = fc
  .shuffledSubarray(columnPool, { minLength: 1 })
  .chain((header) =>
    mappingOver(header).chain((mapping) => rowsFor(header, mapping).map((rows) => ({ header, mapping, rows }))),
  );

/** The cells as mapRow reads them: own properties only, so `constructor` is a column like any other. */
function cellsOf(header: readonly string[], raw: readonly string[]): Record<string, string> {
  const cells = Object.create(null) as Record<string, string>;
  header.forEach((column, position) => (cells[column] = raw[position] ?? ''));
  return cells;
}

/** Compares the two on one row; true when the row maps. */
function expectSame(mapping: Mapping, header: readonly string[], raw: readonly string[]): boolean {
  const compiled = compileMapping(mapping, header);
  const cells = cellsOf(header, raw);
  const expected = mapRow(cells, mapping);
  const got = compiled.map(raw);
  expect(got).toStrictEqual(expected);
  // Same keys in the same order: the fragments' JSON is what the journal stores and sends.
  expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
  const keyValues = claimKeyValues(cells, mapping);
  expect(compiled.claimKey(raw)).toBe(keyValues.some((value) => value === '') ? undefined : JSON.stringify(keyValues));
  return got.ok;
}

describe('the compiled mapping gives what mapRow gives', () => {
  it("the targets chosen are the schema's", () => {
    for (const target of sharedChoice) expect(sharedTargets).toContain(target);
    for (const target of caseChoice) expect(caseTargets).toContain(target);
  });

  it('for random mappings over random rows', { timeout: 60_000 }, () => {
    let rowsCompared = 0;
    let rowsMapped = 0;
    fc.assert(
      fc.property(caseArbitrary, ({ header, mapping, rows }) => {
        for (const row of rows) if (expectSame(mapping, header, row)) rowsMapped++;
        rowsCompared += rows.length;
      }),
      { numRuns: 400 },
    );
    // Enough rows without errors that the fragments' building is compared too.
    expect(rowsCompared).toBeGreaterThan(1000);
    // (Random mappings refuse most random rows: 2 to 5% map, seen over many seeds.)
    expect(rowsMapped).toBeGreaterThan(rowsCompared / 100);
  });

  it('for mappings whose rows mostly map (every target filled from a cell that reads)', { timeout: 60_000 }, () => {
    // Random rows rarely get every field right; here the cells are the values the fields expect, so rows without errors are compared too.
    const header = ['ref', 'amount', 'currency', 'date', 'network', 'last4', 'reason', 'arn', 'files'];
    const mapping: Mapping = {
      csv: csvDialectSchema.parse({}),
      claim: { key: ['ref'], id: undefined, id_prefix: 'visa-2026' },
      shared: {
        'card.last4': fieldSpecSchema.parse({ column: 'last4', required: true }),
        'card.network': fieldSpecSchema.parse({ column: 'network', case: 'lower' }),
        'dispute.reason': fieldSpecSchema.parse({
          column: 'reason',
          enum: { FR: 'fraud', NR: 'product_not_received' },
        }),
        'issuer_evidence.amount_correction.amount': fieldSpecSchema.parse({
          column: 'amount',
          type: 'amount',
          amount: { currency_field: 'transaction.currency', decimal_separator: '.' },
        }),
      },
      case: {
        case_id: fieldSpecSchema.parse({ template: '{ref}-{arn}' }),
        'transaction.amount': fieldSpecSchema.parse({
          column: 'amount',
          required: true,
          type: 'amount',
          amount: { currency_field: 'transaction.currency', decimal_separator: '.', group_separator: ',' },
        }),
        'transaction.currency': fieldSpecSchema.parse({ column: 'currency', case: 'upper' }),
        'transaction.date': fieldSpecSchema.parse({ column: 'date', type: 'date', date: { format: 'yyyy-MM-dd' } }),
        'transaction.arn': fieldSpecSchema.parse({ column: 'arn' }),
      },
      custom_fields: { ref: fieldSpecSchema.parse({ column: 'ref' }) },
      evidence: [{ column: 'files', category: 'other', separator: ';' }],
      file_mode: 'auto',
    };
    const good = {
      ref: fc.constantFrom('D-1', 'D-2', ' D-3 '),
      amount: fc.constantFrom('12.34', '1,234.56', '0.5', '', '7'),
      currency: fc.constantFrom('usd', 'EUR', 'jpy', ''),
      date: fc.constantFrom('2026-03-15', '2024-02-29', ''),
      network: fc.constantFrom('VISA', 'amex', ''),
      last4: fc.constantFrom('4242', '0007'),
      reason: fc.constantFrom('FR', 'NR', ''),
      arn: fc.constantFrom('74492156302000184736251', '1234', ''),
      files: fc.constantFrom('', 'a.pdf', 'a.pdf; b.png;'),
    };
    let mapped = 0;
    fc.assert(
      fc.property(fc.record(good), (cells) => {
        const raw = header.map((column) => cells[column as keyof typeof cells]);
        expectSame(mapping, header, raw);
        if (compileMapping(mapping, header).map(raw).ok) mapped++;
      }),
      { numRuns: 500 },
    );
    expect(mapped).toBeGreaterThan(50);
  });
});
