import { describe, expect, it } from 'vitest';
import { readAmount, toMinorUnits, type AmountOptions } from '../../../src/mapping/transforms/amount.js';
import { signOfColumn } from '../../../src/mapping/transforms/sign-column.js';
import { minorUnitExponent } from '../../../src/mapping/transforms/currency.js';

const usd: AmountOptions = { currency: 'USD', decimalSeparator: '.' };
const eur: AmountOptions = { currency: 'EUR', decimalSeparator: ',', groupSeparator: '.' };

describe('toMinorUnits: locale amounts', () => {
  it('reads 1.234,56 with decimal separator "," as 123456', () => {
    expect(toMinorUnits('1.234,56', eur)).toEqual({ ok: true, value: 123456 });
    expect(toMinorUnits('1.234,56', { currency: 'EUR', decimalSeparator: ',' }).ok).toBe(false);
  });

  it('rejects 9,99 under decimal separator "." and never returns 999', () => {
    for (const groupSeparator of [undefined, '', ','] as const) {
      const result = toMinorUnits('9,99', { ...usd, groupSeparator });
      expect(result).toMatchObject({ ok: false, code: 'amount_format' });
      expect(result).not.toMatchObject({ value: 999 });
    }
    expect(toMinorUnits('9,99', usd)).toEqual({
      ok: false,
      code: 'amount_format',
      message: 'amount: expected digits with "." as decimal separator and no digit grouping, got "9,99"',
    });
  });

  it('uses exponent 0 for JPY', () => {
    expect(toMinorUnits('1234', { currency: 'JPY', decimalSeparator: '.' })).toEqual({ ok: true, value: 1234 });
    expect(toMinorUnits('1,234', { currency: 'JPY', decimalSeparator: '.', groupSeparator: ',' })).toEqual({
      ok: true,
      value: 1234,
    });
    expect(toMinorUnits('12.5', { currency: 'JPY', decimalSeparator: '.' })).toMatchObject({
      ok: false,
      code: 'amount_precision',
    });
    expect(toMinorUnits('12.0', { currency: 'JPY', decimalSeparator: '.' })).toEqual({ ok: true, value: 12 });
  });
});

describe('toMinorUnits', () => {
  it('scales by the ISO 4217 exponent: USD 2, KWD 3', () => {
    expect(toMinorUnits('50', usd)).toEqual({ ok: true, value: 5000 });
    expect(toMinorUnits('9.99', usd)).toEqual({ ok: true, value: 999 });
    expect(toMinorUnits('9.9', usd)).toEqual({ ok: true, value: 990 });
    expect(toMinorUnits('0.05', usd)).toEqual({ ok: true, value: 5 });
    expect(toMinorUnits('1.5', { currency: 'KWD', decimalSeparator: '.' })).toEqual({ ok: true, value: 1500 });
    expect(toMinorUnits('1.234', { currency: 'KWD', decimalSeparator: '.' })).toEqual({ ok: true, value: 1234 });
  });

  it('never goes through floating point', () => {
    // 1.005 * 100 is 100.49999999999999 in binary floating point.
    expect(toMinorUnits('1.005', { currency: 'KWD', decimalSeparator: '.' })).toEqual({ ok: true, value: 1005 });
    expect(toMinorUnits('0.29', usd)).toEqual({ ok: true, value: 29 });
    expect(toMinorUnits('90071992547409.91', usd)).toEqual({ ok: true, value: 9007199254740991 });
    expect(toMinorUnits('90071992547409.92', usd)).toMatchObject({ ok: false, code: 'amount_too_large' });
  });

  it('rejects more fraction digits than the exponent instead of rounding', () => {
    expect(toMinorUnits('9.999', usd)).toEqual({
      ok: false,
      code: 'amount_precision',
      message: 'amount: expected at most 2 fraction digits for USD (or zeros after them), got "9.999"',
    });
    expect(toMinorUnits('1.2345', { currency: 'KWD', decimalSeparator: '.' })).toMatchObject({
      code: 'amount_precision',
    });
  });

  it('accepts each group separator only in groups of three', () => {
    expect(toMinorUnits('1,234,567.89', { ...usd, groupSeparator: ',' })).toEqual({ ok: true, value: 123456789 });
    expect(toMinorUnits("1'234.50", { currency: 'CHF', decimalSeparator: '.', groupSeparator: "'" })).toEqual({
      ok: true,
      value: 123450,
    });
    expect(toMinorUnits('1 234,50', { currency: 'EUR', decimalSeparator: ',', groupSeparator: ' ' })).toEqual({
      ok: true,
      value: 123450,
    });
    expect(toMinorUnits('1\u202F234,50', { currency: 'EUR', decimalSeparator: ',', groupSeparator: ' ' })).toEqual({
      ok: true,
      value: 123450,
    });
    expect(toMinorUnits('1234,50', eur)).toEqual({ ok: true, value: 123450 });
    for (const text of ['1.23.4', '12.34,00', '1.2345,00', '.234,00', '1..234,00', '1.234.', '1.234,5,6']) {
      expect(toMinorUnits(text, eur), text).toMatchObject({ ok: false, code: 'amount_format' });
    }
  });

  it('trims spaces and rejects empty, negative and malformed cells', () => {
    expect(toMinorUnits('  12.30 \t', usd)).toEqual({ ok: true, value: 1230 });
    expect(toMinorUnits('', usd)).toMatchObject({ ok: false, code: 'amount_empty' });
    expect(toMinorUnits('   ', usd)).toMatchObject({ ok: false, code: 'amount_empty' });
    for (const text of ['-5.00', '5.00-', '(5.00)', '−5']) {
      expect(toMinorUnits(text, usd), text).toMatchObject({ ok: false, code: 'amount_negative' });
    }
    for (const text of ['12.', '.5', '+5', '1e3', '$5', '5 USD', '٥', 'abc', '0x10']) {
      expect(toMinorUnits(text, usd), text).toMatchObject({ ok: false, code: 'amount_format' });
    }
  });

  it('requires a known ISO 4217 code with a minor unit', () => {
    expect(toMinorUnits('1', { ...usd, currency: 'ZZZ' })).toMatchObject({ ok: false, code: 'currency_unknown' });
    expect(toMinorUnits('1', { ...usd, currency: 'usd' })).toMatchObject({ ok: false, code: 'currency_unknown' });
    expect(toMinorUnits('1', { ...usd, currency: '' })).toMatchObject({ ok: false, code: 'currency_unknown' });
    expect(toMinorUnits('1', { ...usd, currency: 'XAU' })).toMatchObject({ ok: false, code: 'currency_no_minor_unit' });
  });

  it('rejects options that make separators ambiguous', () => {
    expect(toMinorUnits('1', { currency: 'EUR', decimalSeparator: ',', groupSeparator: ',' })).toMatchObject({
      ok: false,
      code: 'options_invalid',
    });
    const fromUntypedFile = { currency: 'EUR', decimalSeparator: ';' } as unknown as AmountOptions;
    expect(toMinorUnits('1', fromUntypedFile)).toMatchObject({ ok: false, code: 'options_invalid' });
  });
});

describe('toMinorUnits: amounts as bank reports write them', () => {
  it('takes zeros past the exponent as no precision, and refuses any other digit there', () => {
    expect(toMinorUnits('1.50000000', usd)).toEqual({ ok: true, value: 150 });
    expect(toMinorUnits('435.52000000', usd)).toEqual({ ok: true, value: 43552 });
    expect(toMinorUnits('3400.000', { currency: 'JPY', decimalSeparator: '.' })).toEqual({ ok: true, value: 3400 });
    expect(toMinorUnits('789.1110', { currency: 'BHD', decimalSeparator: '.' })).toEqual({ ok: true, value: 789111 });
    expect(toMinorUnits('1,50000000', { currency: 'EUR', decimalSeparator: ',' })).toEqual({ ok: true, value: 150 });
    expect(toMinorUnits('1.505', usd)).toEqual({
      ok: false,
      code: 'amount_precision',
      message: 'amount: expected at most 2 fraction digits for USD (or zeros after them), got "1.505"',
    });
    expect(toMinorUnits('1.50000001', usd)).toMatchObject({ ok: false, code: 'amount_precision' });
    expect(toMinorUnits('3400.5', { currency: 'JPY', decimalSeparator: '.' })).toMatchObject({
      code: 'amount_precision',
    });
  });

  it('reads a leading or trailing minus, U+2212 and accounting parentheses as a negative amount', () => {
    for (const text of ['-1.50', '1.50-', '\u22121.50', '1.50\u2212', '(1.50)', ' -1.50000000 ']) {
      expect(readAmount(text, usd), text).toEqual({ ok: true, value: { minorUnits: 150, negative: true } });
    }
    expect(readAmount('1.50', usd)).toEqual({ ok: true, value: { minorUnits: 150, negative: false } });
    for (const text of ['--1.50', '-(1.50)', '(1.50', '1.50)', '- 1.50', '-', '()', '-1.50-']) {
      expect(readAmount(text, usd), text).toMatchObject({ ok: false, code: 'amount_format' });
    }
  });

  it('refuses a negative amount by default, saying how to read a debit, and reads its magnitude when told', () => {
    expect(toMinorUnits('-435.52000000', usd)).toEqual({
      ok: false,
      code: 'amount_negative',
      message:
        'amount: expected a positive amount, got "-435.52000000" (negative: magnitude reads a debit as its size)',
    });
    expect(toMinorUnits('-435.52000000', { ...usd, negative: 'refuse' })).toMatchObject({ code: 'amount_negative' });
    const magnitude: AmountOptions = { ...usd, negative: 'magnitude' };
    for (const text of ['-435.52000000', '435.52-', '(435.52)', '\u2212435.52', '435.52']) {
      expect(toMinorUnits(text, magnitude), text).toEqual({ ok: true, value: 43552 });
    }
    // The sign never excuses a malformed or imprecise amount.
    expect(toMinorUnits('-1.505', magnitude)).toMatchObject({ ok: false, code: 'amount_precision' });
  });

  it('takes the sign of another column: an unsigned cell takes it, a signed one must agree', () => {
    const options = { column: 'Credit Debit Indicator', negative: ['-', 'D'], positive: ['+', 'C'] };
    const sign = (cell: string) => {
      const read = signOfColumn(cell, options);
      if (!read.ok) throw new Error(read.message);
      return read.value;
    };
    const magnitude: AmountOptions = { ...usd, negative: 'magnitude' };
    expect(toMinorUnits('1.50', { ...magnitude, columnSign: sign('D') })).toEqual({ ok: true, value: 150 });
    expect(toMinorUnits('-1.50', { ...magnitude, columnSign: sign('-') })).toEqual({ ok: true, value: 150 });
    expect(toMinorUnits('1.50', { ...usd, columnSign: sign(' + ') })).toEqual({ ok: true, value: 150 });
    expect(toMinorUnits('1.50', { ...usd, columnSign: sign('D') })).toEqual({
      ok: false,
      code: 'amount_negative',
      message:
        'amount: expected a positive amount, got "1.50" with "D" in column "Credit Debit Indicator", a negative sign ' +
        '(negative: magnitude reads a debit as its size)',
    });
    expect(toMinorUnits('-1.50', { ...magnitude, columnSign: sign('C') })).toEqual({
      ok: false,
      code: 'amount_sign_conflict',
      message: 'amount: expected a sign that agrees with column "Credit Debit Indicator" ("C", positive), got "-1.50"',
    });
  });

  it('refuses a sign cell in neither list, naming the column and the values it takes', () => {
    const options = { column: 'DC', negative: ['D'], positive: ['C'] };
    expect(signOfColumn('X', options)).toEqual({
      ok: false,
      code: 'amount_sign_unknown',
      message: 'amount.sign_column: expected "D" (negative) or "C" (positive) in column "DC", got "X"',
    });
    expect(signOfColumn('  ', options)).toMatchObject({ code: 'amount_sign_unknown', message: /got a blank cell$/ });
    expect(signOfColumn('d', options)).toMatchObject({ code: 'amount_sign_unknown' });
    expect(signOfColumn('', { ...options, positive: ['C', ''] })).toMatchObject({
      ok: true,
      value: { negative: false },
    });
  });
});

describe('minorUnitExponent', () => {
  it('follows ISO 4217 where CLDR display digits differ', () => {
    expect(minorUnitExponent('USD')).toEqual({ ok: true, value: 2 });
    expect(minorUnitExponent('JPY')).toEqual({ ok: true, value: 0 });
    expect(minorUnitExponent('KWD')).toEqual({ ok: true, value: 3 });
    // Intl (CLDR) says 0 for these; ISO 4217 says 2 and 3.
    expect(minorUnitExponent('IDR')).toEqual({ ok: true, value: 2 });
    expect(minorUnitExponent('IQD')).toEqual({ ok: true, value: 3 });
    expect(minorUnitExponent('CLF')).toEqual({ ok: true, value: 4 });
  });
});
