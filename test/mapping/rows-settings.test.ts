import { describe, expect, it } from 'vitest';
import { checkHeaderFits, HeaderMismatchError } from '../../src/mapping/header-fit.js';
import { MappingError, parseMapping } from '../../src/mapping/load.js';
import { rowFilterFor } from '../../src/mapping/rows/filter.js';
import { fieldColumns } from '../../src/mapping/columns-read.js';

/** The mapping's `rows` section (docs/mappings.md, "Rows not for import, and the same dispute twice"). */

const base = `
claim: { key: [ref] }
shared:
  card.last4: { column: last4 }
  card.network: { constant: visa }
  dispute.reason: { constant: fraud }
case:
  transaction.amount: { column: amount, type: amount, amount: { currency: USD, decimal_separator: "." } }
  transaction.currency: { constant: USD }
  transaction.date: { column: date, type: date, date: { format: yyyy-MM-dd } }
  transaction.arn: { column: arn }
`;

function issuesOf(yaml: string): string[] {
  try {
    parseMapping(yaml, 'm.yaml');
  } catch (error) {
    if (error instanceof MappingError) return error.message.split('\n');
    throw error;
  }
  return [];
}

describe('mapping rows', () => {
  it('a code YAML reads as a number is refused with its line, saying to quote it; an unknown key too', () => {
    expect(issuesOf(`${base}rows:\n  only: { kind: [01, D] }\n`)).toEqual([
      'm.yaml:13: rows.only.kind.0: expected a value as a string, got the number 1 (quote it: "1")',
    ]);
    expect(issuesOf(`${base}rows:\n  only: {}\n`)).toEqual(['m.yaml:13: rows.only: expected at least one column']);
    expect(issuesOf(`${base}rows:\n  only: { kind: [] }\n`)).toEqual([
      'm.yaml:13: rows.only.kind: expected at least one value',
    ]);
    expect(issuesOf(`${base}rows:\n  several_disputes: true\n`)).toEqual([
      'm.yaml:13: rows.several_disputes: expected a known field, got an unknown one',
    ]);
  });

  it('its columns are columns the mapping reads: a header without one does not fit, unless it is optional', () => {
    const mapping = parseMapping(`${base}rows:\n  only: { "Record Type": [D] }\n`, 'm.yaml');
    expect(fieldColumns(mapping)['rows.only.Record Type']).toEqual(['Record Type']);
    const header = ['ref', 'last4', 'amount', 'date', 'arn'];
    const source = { file: 'in.csv', mappingFile: 'm.yaml', kind: 'export' as const };
    expect(() => checkHeaderFits(mapping, header, source)).toThrow(HeaderMismatchError);
    expect(() => checkHeaderFits(mapping, header, source)).toThrow(
      `the mapping's column "Record Type" (rows.only.Record Type) is not in the export's header`,
    );
    expect(checkHeaderFits(mapping, [...header, 'Record Type'], source).mapped).toBe(6);

    const optional = parseMapping(
      `${base}optional_columns: ["Record Type"]\nrows:\n  only: { "Record Type": [D, ""] }\n`,
      'm.yaml',
    );
    expect(checkHeaderFits(optional, header, source).absentOptional).toEqual(['Record Type']);
    // An absent column reads as blank cells: only a "" value matches them.
    expect(rowFilterFor(optional, header)?.(['A', '4417', '1.00', '2026-01-01', 'x'])).toBeUndefined();
  });

  it('every listed column must match; cells trimmed and compared without regard to case', () => {
    const mapping = parseMapping(`${base}rows:\n  only: { kind: [RECD, Received], stage: ["1"] }\n`, 'm.yaml');
    const filter = rowFilterFor(mapping, ['kind', 'stage']);
    expect(filter?.([' recd ', '1'])).toBeUndefined();
    expect(filter?.(['RECEIVED', ' 1'])).toBeUndefined();
    expect(filter?.(['REPR', '1'])).toEqual({
      code: 'row_skipped',
      message: 'rows.only: "kind" is "REPR", expected one of "RECD", "Received"',
    });
    expect(filter?.(['RECD', ''])?.message).toBe('rows.only: "stage" is blank, expected one of "1"');
    expect(rowFilterFor(parseMapping(base, 'm.yaml'), ['kind'])).toBeUndefined();
  });
});
