import { describe, expect, it } from 'vitest';
import { evaluateField } from '../../../src/mapping/evaluate-field.js';
import { fieldSpecSchema } from '../../../src/mapping/field-spec.js';
import { toYear } from '../../../src/mapping/transforms/year.js';

const thisCentury = { twoDigitWindowStart: 2000 };

describe('toYear', () => {
  it('reads a two-digit year in the window and keeps a four-digit one', () => {
    expect(toYear('28', thisCentury)).toEqual({ ok: true, value: 2028 });
    expect(toYear('2028', thisCentury)).toEqual({ ok: true, value: 2028 });
    expect(toYear(' 05 ', thisCentury)).toEqual({ ok: true, value: 2005 });
    expect(toYear('00', thisCentury)).toEqual({ ok: true, value: 2000 });
    expect(toYear('99', thisCentury)).toEqual({ ok: true, value: 2099 });
    expect(toYear('1999', thisCentury)).toEqual({ ok: true, value: 1999 });
  });

  it('puts two-digit years in the 100 years from the window start', () => {
    const from1950 = { twoDigitWindowStart: 1950 };
    expect(toYear('49', from1950)).toEqual({ ok: true, value: 2049 });
    expect(toYear('50', from1950)).toEqual({ ok: true, value: 1950 });
    expect(toYear('99', from1950)).toEqual({ ok: true, value: 1999 });
    expect(toYear('2049', from1950)).toEqual({ ok: true, value: 2049 });
    const from2025 = { twoDigitWindowStart: 2025 };
    expect(toYear('24', from2025)).toEqual({ ok: true, value: 2124 });
    expect(toYear('25', from2025)).toEqual({ ok: true, value: 2025 });
  });

  it('rejects anything but two or four digits, saying what it expected', () => {
    for (const text of ['2x', '123', '8', '20288', '-28', '+28', '28.0', '0028', '２８', '', 'MM']) {
      expect(toYear(text, thisCentury), text).toMatchObject({ ok: false, code: 'year_invalid' });
    }
    expect(toYear('2x', thisCentury)).toEqual({
      ok: false,
      code: 'year_invalid',
      message: 'year: expected a two-digit (28) or four-digit (2028) year, got "2x"',
    });
    expect(toYear('123', thisCentury)).toEqual({
      ok: false,
      code: 'year_invalid',
      message: 'year: expected a two-digit (28) or four-digit (2028) year, got "123"',
    });
  });

  it('refuses a window start that would not give four-digit years', () => {
    for (const start of [999, 9901, 2000.5, Number.NaN]) {
      expect(toYear('28', { twoDigitWindowStart: start }), String(start)).toMatchObject({
        ok: false,
        code: 'options_invalid',
      });
    }
  });
});

describe('type year in a field spec', () => {
  const cells = { expiry_short: '12/28', expiry_long: '12/2028', expiry_bad: '12/2x' };
  const evaluate = (spec: unknown) => evaluateField(fieldSpecSchema.parse(spec), { cells, resolved: () => undefined });

  it('runs after split, with 2000 as the default window start', () => {
    const year = (column: string) => ({ column, split: { separator: '/', index: 1 }, type: 'year' });
    expect(evaluate(year('expiry_short'))).toEqual({ ok: true, value: 2028 });
    expect(evaluate(year('expiry_long'))).toEqual({ ok: true, value: 2028 });
    expect(evaluate(year('expiry_bad'))).toMatchObject({
      ok: false,
      code: 'year_invalid',
      message: expect.stringContaining('got "2x"') as string,
    });
  });

  it('takes the window start from the year section', () => {
    expect(evaluate({ constant: '49', type: 'year', year: { two_digit_window_start: 1950 } })).toEqual({
      ok: true,
      value: 2049,
    });
    expect(fieldSpecSchema.safeParse({ column: 'y', type: 'year', year: { two_digit_window_start: 50 } }).success).toBe(
      false,
    );
    expect(fieldSpecSchema.safeParse({ column: 'y', type: 'year', year: { pivot: 50 } }).success).toBe(false);
  });
});
