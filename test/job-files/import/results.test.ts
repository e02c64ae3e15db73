import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../../../src/job-files/import/records.js';
import {
  isResultsHeader,
  legacyStatusLayouts,
  renamedStatusCount,
  renameStatusColumns,
  statusColumnCount,
  statusColumns,
} from '../../../src/job-files/import/columns.js';
import { neutralise, restore } from '../../../src/csv/neutralise.js';
import { rowResult } from '../../../src/job-files/import/row-outcome.js';

describe('neutralise', () => {
  it.each(['=HYPERLINK("http://evil","x")', '+cmd', '@SUM(1)', '-2+3', '\tx', '\rx', '=1'])(
    'prefixes %j so a spreadsheet shows it as text',
    (cell) => {
      expect(neutralise(cell)).toBe(`'${cell}`);
      expect(restore(neutralise(cell))).toBe(cell);
    },
  );

  it.each(['-12.50', '+3', '-1.234,56', 'plain', '', "'quoted already"])('leaves %j alone', (cell) => {
    expect(neutralise(cell)).toBe(cell);
    expect(restore(cell)).toBe(cell);
  });
});

describe('the results contract (docs/import.md, "The results CSV")', () => {
  it('has exactly the documented status columns, in order', () => {
    expect(statusColumns).toEqual([
      'line',
      'claim_key',
      'claim_id',
      'case_id',
      'outcome',
      'error_code',
      'error_message',
      'error_field',
      'http_status',
      'attempts',
      'file_ids',
      'changed_fields',
      'warnings',
    ]);
  });
});

describe('results file fed back in', () => {
  it('is recognised by its leading status columns', () => {
    expect(isResultsHeader([...statusColumns, 'ref'])).toBe(true);
    expect(isResultsHeader(['ref', ...statusColumns])).toBe(false);
  });

  it('a results file written before warnings, or before changed_fields, still reads back, its source columns after its status columns', () => {
    const [beforeWarnings = [], beforeChangedFields = []] = legacyStatusLayouts;
    expect(beforeWarnings).toEqual(statusColumns.slice(0, 12));
    expect(beforeChangedFields).toEqual(statusColumns.slice(0, 11));
    expect(statusColumnCount([...statusColumns, 'ref'])).toBe(13);
    expect(statusColumnCount([...beforeWarnings, 'ref'])).toBe(12);
    expect(statusColumnCount([...beforeChangedFields, 'ref'])).toBe(11);
    const legacyStatusColumns = beforeChangedFields;
    expect(statusColumnCount(['line', 'ref'])).toBe(0);
    const renamed = renameStatusColumns([...legacyStatusColumns, 'ref', 'line']);
    expect(renamedStatusCount(renamed)).toBe(11);
    expect(renamed.slice(11)).toEqual(['ref', 'line']);
  });
});

describe('rowResult', () => {
  const base: ResultRecord = {
    idx: 0,
    line: 2,
    source: '[]',
    claim_key: '["A"]',
    case_id: 'c',
    file_ids: null,
    changed_fields: null,
    warnings: null,
    outcome: null,
    error_code: null,
    error_message: null,
    error_field: null,
    http_status: null,
    claim_id: 'C',
    step: 'staged',
    attempts: 0,
    claim_http_status: null,
    claim_error_code: null,
    claim_error_message: null,
    claim_error_field: null,
  };

  it("takes a row's own outcome first", () => {
    expect(rowResult({ ...base, outcome: 'filed', http_status: 202, step: 'done' })).toMatchObject({
      outcome: 'filed',
      errorCode: '',
      httpStatus: 202,
    });
  });

  it('reports a claim the run did not reach as failed, saying to run again', () => {
    expect(rowResult(base)).toMatchObject({ outcome: 'failed', errorCode: 'not_finished' });
    expect(
      rowResult({ ...base, step: 'submitting', claim_error_code: 'CLAIMS_NETWORK', claim_error_message: 'down' }),
    ).toMatchObject({ outcome: 'failed', errorCode: 'CLAIMS_NETWORK' });
  });

  it('reports a created claim whose filing did not finish as created, with why', () => {
    expect(rowResult({ ...base, step: 'filing' })).toMatchObject({ outcome: 'created', errorCode: 'not_finished' });
  });

  it("gives the claim's problem to rows of a held-back or rejected claim", () => {
    expect(
      rowResult({ ...base, step: 'invalid', claim_error_code: 'claim_incomplete', claim_error_message: 'fix line 3' }),
    ).toMatchObject({ outcome: 'invalid', errorCode: 'claim_incomplete' });
  });
});
