import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnReadingsOf, mappedFields } from '../../../src/mapping/columns-read.js';
import { compileMapping } from '../../../src/mapping/compile/index.js';
import { loadMapping } from '../../../src/mapping/load.js';
import { mapRow } from '../../../src/mapping/map-row.js';
import { fieldSteps } from '../../../src/mapping/steps/index.js';

/**
 * Every shipped mapping (mappings/*.yaml), interpreted and compiled, over generated rows: each
 * column's cells drawn from what its fields accept (their enum keys, a sign column's signs),
 * what a bank writes in such columns, and junk. The two must give the same answer on every row,
 * and every step the mapping's fields use must be seen running.
 */

const mappingsDirectory = fileURLToPath(new URL('../../../mappings/', import.meta.url));
const shipped = readdirSync(mappingsDirectory).filter((name) => name.endsWith('.yaml'));

const commonCells = [
  ...['', ' ', 'junk', '=1+2', '0', '1', 'yes', 'N', 'D', 'C', '+', '-', '12/28', '09/2028'],
  ...['12.34', '1,234.56', '1.234,56', '-5', '(1.50)', '000000001235', '000000001235-', '1.5E+22'],
  ...['2026-03-15', '15.03.2026', '03/15/2026', '20260315', '260315', '2026074', '2026-02-30', '46021'],
  ...['USD', 'usd', 'EUR', 'JPY', 'XAU', 'VISA', 'visa', 'mastercard', 'amex', 'AMEX'],
  ...['4970101000000012', '497010******0012', '546604XXXXXX4795', '4242', '0123', '74537604152001234509876'],
  ...['D-1', 'CASE-7', 'a.pdf', 'a.pdf; b.png;', 'Maya Lindqvist', 'constructor'],
];

describe('the shipped mappings, interpreted and compiled, over generated rows', () => {
  it('lists the shipped mappings', () => {
    expect(shipped.length).toBeGreaterThanOrEqual(3);
  });

  it.each(shipped)('%s', { timeout: 60_000 }, async (name) => {
    const mapping = await loadMapping(`${mappingsDirectory}${name}`);
    const header = [...new Set(columnReadingsOf(mapping).map(({ column }) => column))];
    // Each column's own values: the enum keys and signs of the fields that read it.
    const own = new Map<string, Set<string>>(header.map((column) => [column, new Set()]));
    for (const { spec } of mappedFields(mapping)) {
      if (spec.column !== undefined) for (const key of Object.keys(spec.enum ?? {})) own.get(spec.column)?.add(key);
      const sign = spec.amount?.sign_column;
      if (sign !== undefined)
        for (const value of [...sign.negative, ...sign.positive]) own.get(sign.column)?.add(value);
    }
    const cellOf = (column: string) => {
      const values = [...(own.get(column) ?? [])];
      return values.length === 0
        ? fc.constantFrom(...commonCells)
        : fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...values) }, fc.constantFrom(...commonCells));
    };
    const row = fc.tuple(...header.map(cellOf));
    const compiled = compileMapping(mapping, header);
    // The steps the mapping's fields use, as the trace tells them: the blank check only for a required field.
    const used = new Set(
      mappedFields(mapping).flatMap(({ spec }) =>
        fieldSteps
          .filter((step) => step.applies(spec) && (step.name !== 'required' || spec.required))
          .map((step) => step.name),
      ),
    );
    const seen = new Set<string>();
    fc.assert(
      fc.property(row, (raw) => {
        const cells = Object.fromEntries(header.map((column, position) => [column, raw[position] ?? '']));
        const expected = mapRow(cells, mapping, {
          onField: ({ steps }) => {
            for (const { step } of steps) seen.add(step);
          },
        });
        const got = compiled.map(raw);
        expect(got).toStrictEqual(expected);
        expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
      }),
      { numRuns: 1500 },
    );
    for (const step of used) expect(seen).toContain(step);
    expect(used.size).toBeGreaterThan(3);
  });
});
