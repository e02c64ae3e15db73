import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  arnProblem,
  identifierDamage,
  isIdentifierTarget,
  serialDateHint,
} from '../../src/mapping/spreadsheet-damage.js';
import { mapRow } from '../../src/mapping/map-row.js';
import { loadMapping } from '../../src/mapping/load.js';
import { fileURLToPath } from 'node:url';

/** What a spreadsheet does to identifiers and dates, caught before a row maps. */

const genericMapping = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));

describe('identifierDamage', () => {
  it.each([
    ['case.transaction.arn', '1.48792E+22', 'spreadsheet_damaged'],
    ['case.transaction.arn', '7,78563E+22', 'spreadsheet_damaged'],
    ['case.transaction.arn', ' 7.45376E+22 ', 'spreadsheet_damaged'],
    ['custom_fields.ref', '1.5e3', 'spreadsheet_damaged'],
    ['claim.key', '2E+11', 'spreadsheet_damaged'],
    ['shared.card.last4', '123', 'leading_zeros_dropped'],
    ['shared.card.last4', '7', 'leading_zeros_dropped'],
    ['case.merchant.category_code', '742', 'leading_zeros_dropped'],
    ['claim.key', '00:00.0', 'spreadsheet_damaged'],
    ['case.case_id', '12:34.5', 'spreadsheet_damaged'],
    ['custom_fields.ref', ' 9:05,0 ', 'spreadsheet_damaged'],
    ['claim.key', '994268.00000', 'spreadsheet_damaged'],
    ['case.transaction.arn', '55432863263204442746072.0', 'spreadsheet_damaged'],
    ['shared.card.last4', '4795,00', 'spreadsheet_damaged'],
  ])('%s %j → %s', (field, cell, code) => {
    expect(identifierDamage(field, 'col', cell)?.code).toBe(code);
  });

  it.each([
    ['case.transaction.arn', '74492156302000184736251'],
    ['shared.card.last4', '0123'],
    ['case.merchant.category_code', '0742'],
    ['custom_fields.ref', 'D-101'],
    // A reference that only looks like a short number: not fixed-width, so not refused.
    ['custom_fields.ref', '123'],
    ['claim.key', 'CASE-1E5'],
    // A custom field may hold a quantity; a time with seconds is no spreadsheet's mm:ss.0.
    ['custom_fields.amount', '2.00'],
    ['claim.key', '12:34:56'],
    ['claim.key', '994268.5'],
  ])('%s %j is left alone', (field, cell) => {
    expect(identifierDamage(field, 'col', cell)).toBeUndefined();
  });

  it('the message names the column, the value and how to get it back', () => {
    expect(identifierDamage('case.transaction.arn', 'arn', '1.48792E+22')?.message).toBe(
      'column "arn": expected the value as written, got "1.48792E+22", a number in scientific notation: a spreadsheet saved the cell as a number and dropped its last digits, which cannot be recovered from this file; take the value from the original export (or open it with the column typed as text) and run again',
    );
    expect(identifierDamage('shared.card.last4', 'card_last4', '123')?.message).toContain('was it 0123?');
  });

  it('an id written as a decimal says what it was and how to take it, unless the field splits the cell', () => {
    expect(identifierDamage('case.case_id', 'Business Unit Identifier', '994268.00000')).toEqual({
      code: 'spreadsheet_damaged',
      message:
        'column "Business Unit Identifier": expected an identifier\'s digits, got "994268.00000", a number written ' +
        "with decimals (was it 994268?): a spreadsheet or the export's tool wrote the id as a decimal number, and " +
        'another export of it may write 994268; take its whole part with split: { separator: ".", index: 0 } on ' +
        'the field, or export the column as text',
    });
    expect(identifierDamage('claim.key', 'ref', '994268.00000')?.message).toContain(
      'key on a column that holds the reference as written',
    );
    expect(identifierDamage('case.case_id', 'ref', '994268.00000', false, true)).toBeUndefined();
    // Splitting never excuses what is gone for good.
    expect(identifierDamage('case.case_id', 'ref', '00:00.0', false, true)?.code).toBe('spreadsheet_damaged');
  });

  it('identifier targets: ids, references, ARNs, codes; never amounts or dates', () => {
    for (const field of [
      'claim.id',
      'case.case_id',
      'case.transaction.arn',
      'case.transaction.network_details.mastercard.switch_serial_number',
      'shared.card.last4',
      'custom_fields.x',
      'case.merchant.category_code',
    ])
      expect(isIdentifierTarget(field)).toBe(true);
    for (const field of [
      'case.transaction.amount',
      'case.transaction.date',
      'shared.cardholder.name',
      'shared.dispute.reason',
    ])
      expect(isIdentifierTarget(field)).toBe(false);
  });

  it('a value the tool itself wrote (digits, ids, references) never trips the checks', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{4,30}$|^[A-Z]{1,4}-[0-9A-Z-]{1,20}$/), (value) => {
        for (const field of [
          'case.transaction.arn',
          'custom_fields.ref',
          'claim.key',
          'shared.card.last4',
          'case.merchant.category_code',
        ]) {
          if (field.endsWith('last4') || field.endsWith('category_code')) {
            if (/^\d+$/.test(value) && value.length < 4) continue;
          }
          expect(identifierDamage(field, 'col', value)).toBeUndefined();
        }
      }),
    );
  });
});

describe('arnProblem: an ARN checked as an ARN', () => {
  it.each([
    ['74492156302000184736251', 'visa'],
    ['85310426261000093417725', 'mastercard'],
    ['3441237625800071662', 'amex'],
    ['12345', undefined],
  ])('%s (%s) is one', (arn, network) => {
    expect(arnProblem(arn, network)).toBeUndefined();
  });

  it.each([
    ['7449215630200018473625', 'visa', '22 digits'],
    ['744921563020001847362511', 'mastercard', '24 digits'],
    ['7449 2156 3020 0018 4736 251', 'visa', 'with characters other than digits'],
    ['74492156302000184736-25', 'visa', 'with characters other than digits'],
    ['ARN-1', 'amex', 'expected digits only'],
  ])('%s (%s) is refused: %s', (arn, network, said) => {
    const problem = arnProblem(arn, network);
    expect(problem?.code).toBe('arn_invalid');
    expect(problem?.message).toContain(said);
  });
});

describe('serialDateHint', () => {
  it('a spreadsheet serial number is named with the date it stands for', () => {
    expect(serialDateHint('46021')).toContain('serial number for 2025-12-30');
    expect(serialDateHint('46021,5')).toContain('2025-12-30');
  });
  it.each(['2026-11-20', '20.11.2026', '123', '9999', '99999'])('%j is not one', (cell) => {
    expect(serialDateHint(cell)).toBeUndefined();
  });
});

describe('mapRow refuses what a spreadsheet damaged', async () => {
  const mapping = await loadMapping(genericMapping);
  const row = {
    dispute_ref: 'D-1',
    transaction_ref: 'T1',
    reason_code: 'FR',
    dispute_date: '2026-11-20',
    cardholder_name: 'Maya Lindqvist',
    cardholder_email: 'maya@example.com',
    card_last4: '4417',
    card_network: 'VISA',
    card_type: 'Credit',
    card_expiry: '09/29',
    card_active: 'no',
    fraud_reported: 'yes',
    merchant_name: 'Larkspur',
    mcc: '5732',
    transaction_date: '2026-11-15',
    transaction_amount: '849.99',
    disputed_amount: '849.99',
    currency: 'usd',
    arn: '74492156302000184736251',
    cardholder_statement: 'x',
    receipt_file: '',
    correspondence_files: '',
  };

  it.each([
    [{ arn: '7.44922E+22' }, 'case.transaction.arn', 'spreadsheet_damaged'],
    [{ card_last4: '417' }, 'shared.card.last4', 'leading_zeros_dropped'],
    [{ mcc: '742' }, 'case.merchant.category_code', 'leading_zeros_dropped'],
    [{ dispute_ref: '1.2E+07' }, 'claim.key', 'spreadsheet_damaged'],
    [{ arn: '7449215630200018473625' }, 'case.transaction.arn', 'arn_invalid'],
  ])('%j → %s %s', (cells, field, code) => {
    const result = mapRow({ ...row, ...cells }, mapping);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors).toContainEqual(expect.objectContaining({ field, code }));
  });

  it('a serial-number date: the date error says what the spreadsheet did', () => {
    const result = mapRow({ ...row, transaction_date: '46021' }, mapping);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.errors.find((error) => error.field === 'case.transaction.date')?.message).toContain(
        'serial number for 2025-12-30',
      );
  });

  it('a date a spreadsheet saved as a time of day: the date error says its date is gone', () => {
    const result = mapRow({ ...row, transaction_date: '00:00.0' }, mapping);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.errors.find((error) => error.field === 'case.transaction.date')).toMatchObject({
        code: 'date_format',
        message: expect.stringContaining('"00:00.0" is a time of day as a spreadsheet shows one') as string,
      });
  });

  it('a claim key written as a decimal or saved as a time is refused, never grouped on', () => {
    for (const dispute_ref of ['994268.00000', '00:00.0']) {
      const result = mapRow({ ...row, dispute_ref }, mapping);
      expect(result.ok, dispute_ref).toBe(false);
      if (!result.ok)
        expect(result.errors).toContainEqual(
          expect.objectContaining({ field: 'claim.key', code: 'spreadsheet_damaged' }),
        );
    }
  });

  it('the untouched row maps', () => {
    expect(mapRow(row, mapping).ok).toBe(true);
  });
});
