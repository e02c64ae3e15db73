import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import type { Draft } from '../../../src/mapping/guess/guess-mapping.js';
import { rowsSchema } from '../../../src/mapping/rows/schema.js';
import { guessSample, sampleOf } from './guess-sample.js';

const guess = (columns: string[], rows: string[][], firstLine?: number): Draft =>
  guessSample(sampleOf(columns, rows), { source: 'report.csv', firstLine });

/**
 * `mapping guess` on reports with rows that are not all disputes to import (docs/mappings.md,
 * "Rows not for import, and the same dispute twice"): repeated rows are told as the import will
 * report them, and a column of a row's kind gets a commented rows.only with a CHECK.
 */

const columns = ['Case Number', 'Dispute Category Code', 'Acquirer Reference Number', 'Amount', 'Currency'];
const arn = (n: number) => `7449215630200018470000${n}`;

/** The suggestion, uncommented as a person would: the mapping it then makes. */
function uncommented(draft: Draft): string {
  return draft.yaml.replace(/^# rows:$/m, 'rows:').replace(/^# {3}only: /m, '  only: ');
}

describe('mapping guess: rows not for import', () => {
  it('a lifecycle report: a commented rows.only for its first stage, with a CHECK; uncommented, it loads', () => {
    const draft = guess(columns, [
      ['C-1', 'RECD', arn(1), '10.00', 'USD'],
      ['C-1', 'REPR', arn(1), '10.00', 'USD'],
      ['C-2', 'RECD', arn(2), '12.00', 'USD'],
      ['C-2', 'ADJM', arn(2), '12.00', 'USD'],
    ]);

    const check = draft.checks.find((item) => item.field === 'rows.only');
    expect(check?.message).toMatch(/^"Dispute Category Code" holds "RECD", "REPR", "ADJM" in the sample/);
    expect(draft.yaml).toContain('# rows:\n#   only: { "Dispute Category Code": [RECD] }\n');
    // Commented: the draft imports every row until a person decides.
    expect((parseDocument(draft.yaml).toJS() as { rows?: unknown }).rows).toBeUndefined();
    const mapping = parseDocument(uncommented(draft)).toJS() as { rows?: unknown };
    expect(mapping.rows).toEqual({ only: { 'Dispute Category Code': ['RECD'] } });
    expect(rowsSchema.parse(mapping.rows)).toEqual({
      only: { 'Dispute Category Code': ['RECD'] },
      several_disputes_per_transaction: false,
    });
  });

  it('a record type column by its header, codes unknown: every value offered, the choice left to a person', () => {
    const draft = guess(
      ['Case Number', 'Record Type', 'Reason', 'Acquirer Reference Number', 'Amount'],
      [
        ['C-1', 'D', 'Fraudulent', arn(1), '10.00'],
        ['C-1', 'D', 'Fraudulent', arn(2), '12.00'],
        ['C-2', 'D', 'Not received', arn(3), '7.00'],
        ['', 'S', '', '', '29.00'],
      ],
    );
    expect(draft.checks.find((item) => item.field === 'rows.only')?.message).toContain('(choose its values below)');
    expect(draft.yaml).toContain('#   only: { "Record Type": [D, S] }');
  });

  it('identical rows are named by line, as the import will report them', () => {
    const row = ['C-1', 'RECD', arn(1), '10.00', 'USD'];
    const draft = guess(columns, [row, row, row, ['C-2', 'RECD', arn(2), '5.00', 'USD'], row.slice(0, 4)], 4);
    expect(draft.checks.filter((item) => item.field === 'rows').map((item) => item.message)).toEqual([
      'rows 4, 5 and 6 are identical: the import reports the later ones as duplicate (one case for them all)',
    ]);
  });

  it('a plain export: no rows part at all', () => {
    const draft = guess(
      ['Case Number', 'Reason', 'Acquirer Reference Number', 'Amount'],
      [
        ['C-1', 'Fraudulent', arn(1), '10.00'],
        ['C-2', 'Duplicate charge', arn(2), '12.00'],
      ],
    );
    expect(draft.yaml).not.toContain('# rows:');
    expect(draft.checks.filter((item) => item.field.startsWith('rows'))).toEqual([]);
  });
});
