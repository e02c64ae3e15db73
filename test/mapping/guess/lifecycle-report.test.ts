import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { classifyDate } from '../../../src/mapping/guess/classify-date.js';
import type { Draft } from '../../../src/mapping/guess/guess-mapping.js';
import { matchHeader } from '../../../src/mapping/guess/header-names.js';
import type { Sample } from '../../../src/mapping/guess/types.js';
import { guessSample, sampleOf } from './guess-sample.js';

const guess = (sample: Sample): Draft =>
  guessSample(sample, { source: 'DisputeDetails.csv', dialect: { lineEnding: 'CRLF' } });

/**
 * `mapping guess` on a processor's lifecycle report (docs/mappings.md, "Onboarding a new
 * export"): many columns naming amounts, currencies and ids alike, one dispute repeated on
 * identical rows, dates written as a service's API writes them. What it must not place: a date as
 * the claim key, a merchant's identifier as its name, a dispute's time as the transaction's date.
 */

const columns = [
  'Account Number',
  'Acquirer Reference Number',
  'Activity Date',
  'Dispute Due Date',
  'Dispute Initiate Date',
  'Merchant Reporting Identifier',
  'Dispute Settlement Currency Amount',
  'Post Event Action Presentment Currency Amount',
  'Post Event Action Settlement Currency Amount',
  'Presentment Currency Code',
  'Transaction Date',
];
const row = [
  '411111XXXXXX1111',
  '74000000000000000000001',
  '2026-11-02',
  '2026-12-10',
  '2026-11-01',
  '880123456789',
  '12.50000000',
  '12.50000000',
  '12.50000000',
  'USD',
  '2026-10-20',
];
// One dispute on three identical lines, as one published report has it.
const sample = sampleOf(columns, [row, row, row]);

describe('mapping guess on a lifecycle report', () => {
  it('keys claims on the ARN, never on a date, and places no merchant identifier as its name', () => {
    const draft = guess(sample);
    const mapping = parseYaml(draft.yaml) as {
      claim: { key: string[] };
      case: Record<string, { column?: string } | undefined>;
      shared: Record<string, { column?: string } | undefined>;
    };
    expect(mapping.claim.key).toEqual(['Acquirer Reference Number']);
    expect(mapping.case['merchant.name']).toBeUndefined();
    expect(mapping.case['transaction.date']?.column).toBe('Transaction Date');
    expect(mapping.shared['dispute.date']?.column).toBe('Dispute Initiate Date');
    expect(mapping.case['dispute.amount']?.column).toBe('Dispute Settlement Currency Amount');
  });

  it('asks which column was meant when a header word it placed by is in other headers too', () => {
    const draft = guess(sample);
    expect(draft.checks.map((check) => check.message)).toContainEqual(
      expect.stringContaining(
        'is "Post Event Action Presentment Currency Amount" the one meant? another column names transaction.amount too',
      ),
    );
  });

  it('reads words apart in a header: a dispute amount, a dispute date; an identifier is no name', () => {
    expect(matchHeader('Dispute Settlement Currency Amount')?.role).toBe('dispute.amount');
    expect(matchHeader('Chargeback Reversal Amount')?.role).toBe('dispute.amount');
    expect(matchHeader('Dispute Time')?.role).toBe('dispute.date');
    expect(matchHeader('Dispute Due Date')?.role).toBe('deadline');
    expect(matchHeader('Merchant Acquirer Reporting Identifier')?.role).not.toBe('merchant.name');
    expect(matchHeader('Merchant Name')?.role).toBe('merchant.name');
  });

  it('reads ISO date-times written two ways in one column as format "iso"', () => {
    const guessed = classifyDate(['2000-01-01T20:05:30Z', '2001-02-04T00:00:00.888Z', '2003-04-09T20:05:30Z']);
    expect(guessed).toMatchObject({ kind: 'date', format: 'iso', hasTime: true, needsTimeZone: false });
    expect(classifyDate(['2000-01-01T20:05:30', '2001-02-04T00:00:00.5'])).toMatchObject({
      format: 'iso',
      needsTimeZone: true,
    });
    expect(classifyDate(['2000-01-01T20:05:30Z', 'yesterday'])).toBeUndefined();
  });
});
