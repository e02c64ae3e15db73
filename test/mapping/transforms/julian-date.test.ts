import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { dayOfYearProblem, luxonDateFormat, toDateTime } from '../../../src/mapping/transforms/date.js';

/**
 * Dates as fixed-width files write them: Julian `yyyyDDD` (a year and its day of the year) and
 * two-digit years, `yyMMdd` (docs/mappings.md, "Dates without separators, and deadlines").
 */

const utc = (format: string) => ({ format, timeZone: 'UTC' });

describe('luxon itself, as the date transform relies on it', () => {
  it('reads ooo as the day of the year, and its D tokens as a whole localized date', () => {
    const read = (text: string, format: string) => DateTime.fromFormat(text, format, { zone: 'UTC', locale: 'en-US' });
    expect(read('2017141', 'yyyyooo').toISODate()).toBe('2017-05-21');
    expect(read('2017000', 'yyyyooo').invalidReason).toBe('unit out of range');
    expect(read('2017366', 'yyyyooo').invalidReason).toBe('unit out of range');
    expect(read('2016366', 'yyyyooo').toISODate()).toBe('2016-12-31');
    // Why DDD is translated: to luxon it is "May 21, 2017", never a day number.
    expect(read('2017141', 'yyyyDDD').isValid).toBe(false);
    expect(read('May 21, 2017', 'DDD').toISODate()).toBe('2017-05-21');
    // Two-digit years: luxon's default cutoff, 60, puts 00–60 in 20xx and 61–99 in 19xx.
    expect(read('170521', 'yyMMdd').toISODate()).toBe('2017-05-21');
    expect(read('600101', 'yyMMdd').toISODate()).toBe('2060-01-01');
    expect(read('610101', 'yyMMdd').toISODate()).toBe('1961-01-01');
    expect(read('991231', 'yyMMdd').toISODate()).toBe('1999-12-31');
  });
});

describe('toDateTime: Julian dates', () => {
  it('reads yyyyDDD and yyyyooo as the year and its day, at midnight UTC in any zone', () => {
    for (const format of ['yyyyDDD', 'yyyyooo'])
      for (const timeZone of ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles']) {
        expect(toDateTime('2017141', { format, timeZone }), `${format} ${timeZone}`).toEqual({
          ok: true,
          value: '2017-05-21T00:00:00.000Z',
        });
      }
    expect(toDateTime('2017001', utc('yyyyDDD'))).toEqual({ ok: true, value: '2017-01-01T00:00:00.000Z' });
    expect(toDateTime('2017365', utc('yyyyDDD'))).toEqual({ ok: true, value: '2017-12-31T00:00:00.000Z' });
    expect(toDateTime('2016366', utc('yyyyDDD'))).toEqual({ ok: true, value: '2016-12-31T00:00:00.000Z' });
    expect(toDateTime('2024060', utc('yyyyDDD'))).toEqual({ ok: true, value: '2024-02-29T00:00:00.000Z' });
    expect(toDateTime('17141', utc('yyDDD'))).toEqual({ ok: true, value: '2017-05-21T00:00:00.000Z' });
    expect(toDateTime('2017141 1430', { format: 'yyyyDDD HHmm', timeZone: 'Europe/Berlin' })).toEqual({
      ok: true,
      value: '2017-05-21T12:30:00.000Z',
    });
  });

  it('refuses day 000 and day 366 of a common year as dates that do not exist', () => {
    for (const text of ['2017000', '2017366', '2100366'])
      expect(toDateTime(text, utc('yyyyDDD')), text).toEqual({
        ok: false,
        code: 'date_invalid',
        message: `date: expected an existing date, got "${text}"`,
      });
    expect(toDateTime('2017999', utc('yyyyDDD'))).toMatchObject({ ok: false, code: 'date_invalid' });
  });

  it('refuses other shapes, naming the format as the mapping wrote it', () => {
    for (const text of ['201714', '20171411', '2017-141', '2017 141', 'May 21, 2017'])
      expect(toDateTime(text, utc('yyyyDDD')), text).toEqual({
        ok: false,
        code: 'date_format',
        message: `date: expected a date as "yyyyDDD", got ${JSON.stringify(text)}`,
      });
    expect(toDateTime('', utc('yyyyDDD'))).toMatchObject({ ok: false, code: 'date_empty' });
  });

  it('translates DDD only beside a year and outside quotes; DDD alone stays luxon’s localized date', () => {
    expect(luxonDateFormat('yyyyDDD')).toBe('yyyyooo');
    expect(luxonDateFormat('yyDDD')).toBe('yyooo');
    expect(luxonDateFormat("'DDD'yyyyDDD")).toBe("'DDD'yyyyooo");
    expect(luxonDateFormat('DDD')).toBe('DDD');
    expect(luxonDateFormat('DDDD')).toBe('DDDD');
    expect(luxonDateFormat('yyyyMMdd')).toBe('yyyyMMdd');
    expect(toDateTime('DDD2017141', utc("'DDD'yyyyDDD"))).toEqual({ ok: true, value: '2017-05-21T00:00:00.000Z' });
    expect(toDateTime('May 21, 2017', utc('DDD'))).toEqual({ ok: true, value: '2017-05-21T00:00:00.000Z' });
  });

  it('refuses D, DD and DDDD beside a year, naming the tokens for a day of the year', () => {
    const message =
      'expected DDD or ooo for a day of the year (or MM and dd for a month and day) beside a year, got "yyyyD" ' +
      '(D, DD and DDDD are a whole localized date in luxon)';
    expect(dayOfYearProblem('yyyyD')).toBe(message);
    expect(toDateTime('2017141', utc('yyyyD'))).toEqual({
      ok: false,
      code: 'options_invalid',
      message: `date.format: ${message}`,
    });
    for (const format of ['yyyyDD', 'yyyyDDDD', 'DDyyyy', 'yyyy-MM-dd D'])
      expect(dayOfYearProblem(format), format).toBeDefined();
    for (const format of ['yyyyDDD', 'yyyyooo', 'yyyyMMdd', 'D', 'DDDD', "yyyy'D'MMdd", 'iso'])
      expect(dayOfYearProblem(format), format).toBeUndefined();
  });
});

describe('toDateTime: two-digit years', () => {
  it('reads yyMMdd in luxon’s window: 00 to 60 as 20xx, 61 to 99 as 19xx', () => {
    expect(toDateTime('170521', utc('yyMMdd'))).toEqual({ ok: true, value: '2017-05-21T00:00:00.000Z' });
    expect(toDateTime('000101', utc('yyMMdd'))).toEqual({ ok: true, value: '2000-01-01T00:00:00.000Z' });
    expect(toDateTime('601231', utc('yyMMdd'))).toEqual({ ok: true, value: '2060-12-31T00:00:00.000Z' });
    expect(toDateTime('610101', utc('yyMMdd'))).toEqual({ ok: true, value: '1961-01-01T00:00:00.000Z' });
    expect(toDateTime('991231', utc('yyMMdd'))).toEqual({ ok: true, value: '1999-12-31T00:00:00.000Z' });
    // 2000 is a leap year, 1900 would not be: 29 February of "00" exists.
    expect(toDateTime('000229', utc('yyMMdd'))).toEqual({ ok: true, value: '2000-02-29T00:00:00.000Z' });
    expect(toDateTime('170229', utc('yyMMdd'))).toMatchObject({ ok: false, code: 'date_invalid' });
  });
});
