import { fail, ok, quote, type TransformResult } from './result.js';

export interface YearOptions {
  /**
   * First year of the 100-year window a two-digit year falls in: 2000 reads "28" as 2028 and
   * "99" as 2099; 1950 reads "49" as 2049 and "50" as 1950. Four-digit years are kept as written.
   */
  readonly twoDigitWindowStart: number;
}

/** Card expiry years, the years mappings read, are this century's: "28" is 2028. */
export const defaultTwoDigitWindowStart = 2000;

/** The lowest and highest window starts that keep every result a four-digit year. */
export const minWindowStart = 1000;
export const maxWindowStart = 9900;

/**
 * A year written with two or four digits, e.g. the year of a card expiry "12/28" or "12/2028", to
 * a four-digit year. Anything else ("2x", "123", "8", "20288", "-28") is an error, never a guess.
 */
export function toYear(value: string, options: YearOptions): TransformResult<number> {
  const start = options.twoDigitWindowStart;
  if (!Number.isSafeInteger(start) || start < minWindowStart || start > maxWindowStart) {
    return fail(
      'options_invalid',
      `year.two_digit_window_start: expected a whole number from ${minWindowStart} to ${maxWindowStart}, got ${start}`,
    );
  }
  const trimmed = value.trim();
  if (/^[1-9]\d{3}$/.test(trimmed)) return ok(Number(trimmed));
  if (!/^\d{2}$/.test(trimmed)) {
    return fail('year_invalid', `year: expected a two-digit (28) or four-digit (2028) year, got ${quote(trimmed)}`);
  }
  const inStartCentury = start - (start % 100) + Number(trimmed);
  return ok(inStartCentury < start ? inStartCentury + 100 : inStartCentury);
}
