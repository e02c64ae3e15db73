import { describe, expect, it } from 'vitest';
import { readAmount, toMinorUnits, type AmountOptions } from '../../../src/mapping/transforms/amount.js';
import { signOfColumn, type SignColumnOptions } from '../../../src/mapping/transforms/sign-column.js';

/** Amounts as fixed-width files write them: digits only, zero-padded, the last N digits the decimals. */

const usd: AmountOptions = { currency: 'USD', impliedDecimals: 2 };
const jpy: AmountOptions = { currency: 'JPY', impliedDecimals: 2 };
const bhd: AmountOptions = { currency: 'BHD', impliedDecimals: 3 };

describe('toMinorUnits with implied decimals', () => {
  it('reads the last N digits as the decimals, whatever the zero padding', () => {
    expect(toMinorUnits('000000001235', usd)).toEqual({ ok: true, value: 1235 });
    expect(toMinorUnits('1235', usd)).toEqual({ ok: true, value: 1235 });
    expect(toMinorUnits('000000000000000000000000000000001235', usd)).toEqual({ ok: true, value: 1235 });
    expect(toMinorUnits('000000123456', usd)).toEqual({ ok: true, value: 123456 });
    // Fewer digits than decimals: 5 with 2 implied is 0.05.
    expect(toMinorUnits('5', usd)).toEqual({ ok: true, value: 5 });
    expect(toMinorUnits('000000000000', usd)).toEqual({ ok: true, value: 0 });
    expect(toMinorUnits('  000000001235 ', usd)).toEqual({ ok: true, value: 1235 });
  });

  it('scales to the currency: BHD has 3 decimals, JPY none', () => {
    expect(toMinorUnits('000000012345', bhd)).toEqual({ ok: true, value: 12345 });
    // 12.35 BHD with 2 implied decimals is 12350 fils.
    expect(toMinorUnits('000000001235', { currency: 'BHD', impliedDecimals: 2 })).toEqual({ ok: true, value: 12350 });
    expect(toMinorUnits('000000001234', { currency: 'JPY', impliedDecimals: 0 })).toEqual({ ok: true, value: 1234 });
    // More implied decimals than the currency has: the extra ones must be zeros.
    expect(toMinorUnits('000000123400', jpy)).toEqual({ ok: true, value: 1234 });
    // 123.45000 USD.
    expect(toMinorUnits('000012345000', { currency: 'USD', impliedDecimals: 5 })).toEqual({ ok: true, value: 12345 });
  });

  it('refuses digits past the currency’s exponent instead of rounding, saying how it read them', () => {
    expect(toMinorUnits('000000001235', jpy)).toEqual({
      ok: false,
      code: 'amount_precision',
      message:
        'amount: expected at most 0 fraction digits for JPY (or zeros after them), got "000000001235" ' +
        '(12.35 with 2 implied decimals)',
    });
    expect(toMinorUnits('12345', { currency: 'USD', impliedDecimals: 3 })).toEqual({
      ok: false,
      code: 'amount_precision',
      message:
        'amount: expected at most 2 fraction digits for USD (or zeros after them), got "12345" ' +
        '(12.345 with 3 implied decimals)',
    });
  });

  it('N=0 reads whole major units', () => {
    expect(toMinorUnits('000000001235', { currency: 'USD', impliedDecimals: 0 })).toEqual({
      ok: true,
      value: 123500,
    });
    expect(toMinorUnits('7', { currency: 'BHD', impliedDecimals: 0 })).toEqual({ ok: true, value: 7000 });
  });

  it('refuses a cell that holds a separator anyway, or anything but digits', () => {
    expect(toMinorUnits('12.35', usd)).toEqual({
      ok: false,
      code: 'amount_format',
      message: 'amount: expected digits only (2 implied decimals, no decimal separator), got "12.35"',
    });
    expect(toMinorUnits('1,235', { currency: 'USD', impliedDecimals: 1 })).toEqual({
      ok: false,
      code: 'amount_format',
      message: 'amount: expected digits only (1 implied decimal, no decimal separator), got "1,235"',
    });
    for (const text of ['0000 1235', '1e3', '+000000001235', '00000000123A', '٥', '-', '()', '--1235', '1 235']) {
      expect(toMinorUnits(text, usd), text).toMatchObject({ ok: false, code: 'amount_format' });
    }
  });

  it('refuses a blank cell as amount_empty', () => {
    for (const text of ['', '            '])
      expect(toMinorUnits(text, usd), JSON.stringify(text)).toEqual({
        ok: false,
        code: 'amount_empty',
        message: 'amount: expected a decimal number, got an empty cell',
      });
  });

  it('reads the signs the separated reader reads, and refuses or sizes a negative as told', () => {
    for (const text of ['-000000001235', '000000001235-', '\u2212000000001235', '(000000001235)']) {
      expect(readAmount(text, usd), text).toEqual({ ok: true, value: { minorUnits: 1235, negative: true } });
      expect(toMinorUnits(text, usd), text).toMatchObject({ ok: false, code: 'amount_negative' });
      expect(toMinorUnits(text, { ...usd, negative: 'magnitude' }), text).toEqual({ ok: true, value: 1235 });
    }
    expect(toMinorUnits('-000000001235', usd)).toMatchObject({
      message:
        'amount: expected a positive amount, got "-000000001235" (negative: magnitude reads a debit as its size)',
    });
  });

  it('keeps amounts beyond 2^53 minor units out, zero padding or not', () => {
    expect(toMinorUnits('0009007199254740991', usd)).toEqual({ ok: true, value: 9007199254740991 });
    expect(toMinorUnits('0009007199254740992', usd)).toMatchObject({ ok: false, code: 'amount_too_large' });
    expect(toMinorUnits('1000000000000000000000', usd)).toMatchObject({ ok: false, code: 'amount_too_large' });
  });

  it('refuses options a mapping file could not have given', () => {
    const both = { currency: 'USD', impliedDecimals: 2, decimalSeparator: '.' } as const;
    expect(toMinorUnits('1235', both)).toEqual({
      ok: false,
      code: 'options_invalid',
      message: 'amount.decimalSeparator: expected none with impliedDecimals, got "."',
    });
    expect(toMinorUnits('1235', { ...usd, groupSeparator: ',' })).toEqual({
      ok: false,
      code: 'options_invalid',
      message: 'amount.groupSeparator: expected none with impliedDecimals, got ","',
    });
    for (const impliedDecimals of [-1, 1.5, 16, Number.NaN])
      expect(toMinorUnits('1235', { currency: 'USD', impliedDecimals }), String(impliedDecimals)).toMatchObject({
        ok: false,
        code: 'options_invalid',
        message: `amount.impliedDecimals: expected a whole number from 0 to 15, got ${String(impliedDecimals)}`,
      });
    expect(toMinorUnits('1235', { currency: 'USD' })).toMatchObject({ ok: false, code: 'options_invalid' });
  });
});

describe('a one-character sign field beside an implied-decimals amount', () => {
  const sign = (cell: string, options: SignColumnOptions) => {
    const read = signOfColumn(cell, options);
    if (!read.ok) throw new Error(read.message);
    return read.value;
  };

  it('takes "-"/"+" or "D"/"C", a blank listed as positive, and refuses what is in neither list', () => {
    const minus = { column: 'SIGN', negative: ['-'], positive: ['+', ''] };
    const debitCredit = { column: 'DC', negative: ['D'], positive: ['C'] };
    const magnitude: AmountOptions = { ...usd, negative: 'magnitude' };
    expect(toMinorUnits('000000001235', { ...magnitude, columnSign: sign('-', minus) })).toEqual({
      ok: true,
      value: 1235,
    });
    expect(toMinorUnits('000000001235', { ...usd, columnSign: sign('+', minus) })).toEqual({ ok: true, value: 1235 });
    // A fixed-width field of one space is a blank cell once trimmed.
    expect(toMinorUnits('000000001235', { ...usd, columnSign: sign(' ', minus) })).toEqual({ ok: true, value: 1235 });
    expect(toMinorUnits('000000001235', { ...usd, columnSign: sign('C', debitCredit) })).toEqual({
      ok: true,
      value: 1235,
    });
    expect(toMinorUnits('000000001235', { ...usd, columnSign: sign('D', debitCredit) })).toEqual({
      ok: false,
      code: 'amount_negative',
      message:
        'amount: expected a positive amount, got "000000001235" with "D" in column "DC", a negative sign ' +
        '(negative: magnitude reads a debit as its size)',
    });
    expect(toMinorUnits('000000001235-', { ...magnitude, columnSign: sign('C', debitCredit) })).toMatchObject({
      ok: false,
      code: 'amount_sign_conflict',
    });
    expect(signOfColumn(' ', debitCredit)).toEqual({
      ok: false,
      code: 'amount_sign_unknown',
      message: 'amount.sign_column: expected "D" (negative) or "C" (positive) in column "DC", got a blank cell',
    });
    expect(signOfColumn('X', minus)).toMatchObject({ ok: false, code: 'amount_sign_unknown' });
  });
});
