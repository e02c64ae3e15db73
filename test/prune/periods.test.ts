import { describe, expect, it } from 'vitest';
import { after, parsePeriod, policySeconds } from '../../src/prune/periods.js';
import { resolveRetentionPolicy } from '../../src/prune/policy.js';

const period = (text: string) => {
  const parsed = parsePeriod(text);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed;
};

describe('retention periods', () => {
  it('reads a whole number and a unit, and refuses anything else saying what it expected', () => {
    expect(period('90d')).toEqual({ text: '90d', count: 90, unit: 'd' });
    expect(period(' 7y ')).toEqual({ text: '7y', count: 7, unit: 'y' });
    for (const text of ['90', 'd', '1.5y', '-3d', '7 years', '', '123456d'])
      expect(parsePeriod(text), text).toEqual({
        problem: `expected a whole number and a unit (d, w, m or y), such as 90d or 7y, got ${JSON.stringify(text)}`,
      });
  });

  it('counts days and weeks exactly, months and years by the calendar', () => {
    const from = new Date('2026-01-31T10:00:00Z');
    expect(after(from, period('0d')).toISOString()).toBe('2026-01-31T10:00:00.000Z');
    expect(after(from, period('90d')).toISOString()).toBe('2026-05-01T10:00:00.000Z');
    expect(after(from, period('2w')).toISOString()).toBe('2026-02-14T10:00:00.000Z');
    // A day the month lacks is its last.
    expect(after(from, period('1m')).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(after(new Date('2028-01-31T00:00:00Z'), period('1m')).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(after(new Date('2028-02-29T00:00:00Z'), period('7y')).toISOString()).toBe('2035-02-28T00:00:00.000Z');
    expect(policySeconds(period('90d'))).toBe(7_776_000);
  });

  it('takes the flag over the environment over the default, and keeps records at least as long as personal data', () => {
    expect(resolveRetentionPolicy({}, {}).keepPersonalData.text).toBe('90d');
    expect(resolveRetentionPolicy({}, {}).keepRecords.text).toBe('7y');
    const env = { BULK_DISPUTES_KEEP_PERSONAL_DATA: '30d', BULK_DISPUTES_KEEP_RECORDS: '5y' };
    expect(resolveRetentionPolicy({}, env).keepPersonalData.text).toBe('30d');
    expect(resolveRetentionPolicy({ keepPersonalData: '12w' }, env).keepPersonalData.text).toBe('12w');
    expect(() => resolveRetentionPolicy({ keepPersonalData: '2y', keepRecords: '1y' }, {})).toThrow(
      /--keep-records: expected at least --keep-personal-data \(2y\)/,
    );
    expect(() => resolveRetentionPolicy({}, { BULK_DISPUTES_KEEP_RECORDS: '7 years' })).toThrow(
      /^BULK_DISPUTES_KEEP_RECORDS: expected a whole number/,
    );
  });
});
