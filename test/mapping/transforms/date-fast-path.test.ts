import fc from 'fast-check';
import { DateTime, type TokenParser } from 'luxon';
import { describe, expect, it } from 'vitest';
import { toDateTime } from '../../../src/mapping/transforms/date.js';
import type { TransformResult } from '../../../src/mapping/transforms/result.js';

/**
 * toDateTime answers the all-digit date formats without luxon, to save staging CPU. Whatever the
 * cell, it must give exactly what luxon gives: these tests compare it with luxon itself, read the
 * way date.ts documents (a date-only pattern is the calendar date at midnight UTC; "unit out of
 * range" is date_invalid, any other invalid reason date_format).
 */
function byLuxon(text: string, format: string): TransformResult<string> {
  const trimmed = text.trim();
  if (trimmed === '')
    return { ok: false, code: 'date_empty', message: `date: expected a date as "${format}", got an empty cell` };
  const parsed = DateTime.fromFormatParser(trimmed, parserOf(format), { zone: 'UTC', locale: 'en-US' });
  if (parsed.isValid) return { ok: true, value: parsed.toISO() };
  return parsed.invalidReason === 'unit out of range'
    ? { ok: false, code: 'date_invalid', message: `date: expected an existing date, got ${JSON.stringify(trimmed)}` }
    : {
        ok: false,
        code: 'date_format',
        message: `date: expected a date as ${JSON.stringify(format)}, got ${JSON.stringify(trimmed)}`,
      };
}

const parsers = new Map<string, TokenParser>();
function parserOf(format: string): TokenParser {
  let parser = parsers.get(format);
  if (parser === undefined) {
    parser = DateTime.buildFormatParser(format, { locale: 'en-US' });
    parsers.set(format, parser);
  }
  return parser;
}

/** The cells where toDateTime and luxon disagree (compared without expect: there are many). */
function disagreements(cases: Iterable<{ text: string; format: string; timeZone?: string }>): string[] {
  const found: string[] = [];
  for (const { text, format, timeZone = 'UTC' } of cases) {
    const got = JSON.stringify(toDateTime(text, { format, timeZone }));
    const expected = JSON.stringify(byLuxon(text, format));
    if (got !== expected && found.length < 20)
      found.push(`${JSON.stringify(text)} as ${format}: got ${got}, luxon ${expected}`);
  }
  return found;
}

const tokens = ['yyyy', 'MM', 'dd'] as const;
const orders = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
] as const;
/** Every format the fast path takes: each order of yyyy, MM and dd, with each separator or none. */
const fastFormats = orders.flatMap((order) =>
  ['-', '/', '.', ''].map((separator) => order.map((index) => tokens[index]).join(separator)),
);
const zones = ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles', 'Europe/Berlin'];

function cellOf(format: string, parts: { yyyy: string; MM: string; dd: string }): string {
  return format.replace(/yyyy|MM|dd/g, (token) => parts[token as keyof typeof parts]);
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

describe('toDateTime fast path for all-digit dates: the same as luxon', () => {
  it('agrees on every month 00-99 and day 00-99, and on months 00-13 and days 00-39 in every order and separator', () => {
    function* cases() {
      for (const year of [2024, 2026]) {
        for (let month = 0; month < 100; month++) {
          for (let day = 0; day < 100; day++)
            yield { text: `${year}-${pad(month, 2)}-${pad(day, 2)}`, format: 'yyyy-MM-dd' };
        }
      }
      // Leap, century and edge years: every month that exists and the ones next to it, every day up to 39.
      for (const year of [0, 1900, 2000, 2024, 2026, 9999]) {
        for (const month of [...Array.from({ length: 14 }, (_, index) => index), 99]) {
          for (const day of [...Array.from({ length: 40 }, (_, index) => index), 99]) {
            const parts = { yyyy: pad(year, 4), MM: pad(month, 2), dd: pad(day, 2) };
            for (const format of fastFormats) yield { text: cellOf(format, parts), format };
          }
        }
      }
    }
    expect(disagreements(cases())).toEqual([]);
  }, 120_000);

  it('agrees on every year 0000-9999 at the edges of February and December', () => {
    function* cases() {
      for (let year = 0; year <= 9999; year++) {
        for (const [month, day] of [
          [2, 28],
          [2, 29],
          [12, 31],
          [1, 1],
        ] as const) {
          yield { text: `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`, format: 'yyyy-MM-dd' };
        }
      }
    }
    expect(disagreements(cases())).toEqual([]);
  }, 60_000);

  it('agrees on arbitrary cells near the format, in any zone', () => {
    const noise = fc.constantFrom(
      '',
      ' ',
      '\t',
      '-',
      '/',
      '.',
      '+',
      '0',
      '9',
      '٢',
      '２',
      'a',
      'T',
      '\u00a0',
      '00',
      '2026',
      '1',
    );
    const digits = (length: number) =>
      fc.string({ unit: fc.constantFrom('0', '1', '2', '3', '9'), minLength: length, maxLength: length });
    const cell = fc.oneof(
      // Well-formed cells of any digits.
      fc
        .tuple(fc.constantFrom(...fastFormats), digits(4), digits(2), digits(2))
        .map(([format, yyyy, MM, dd]) => ({ format, text: cellOf(format, { yyyy, MM, dd }) })),
      // Well-formed cells with noise inserted, replaced or around.
      fc
        .tuple(
          fc.constantFrom(...fastFormats),
          fc.integer({ min: 0, max: 9999 }),
          fc.integer({ min: 0, max: 13 }),
          fc.integer({ min: 0, max: 32 }),
          noise,
          fc.nat(12),
          fc.boolean(),
        )
        .map(([format, year, month, day, extra, at, replace]) => {
          const text = cellOf(format, { yyyy: pad(year, 4), MM: pad(month, 2), dd: pad(day, 2) });
          return { format, text: text.slice(0, at) + extra + text.slice(replace ? at + 1 : at) };
        }),
      // Any short text of the characters involved.
      fc
        .tuple(fc.constantFrom(...fastFormats), fc.string({ unit: noise, maxLength: 12 }))
        .map(([format, text]) => ({ format, text })),
    );
    fc.assert(
      fc.property(cell, fc.constantFrom(...zones), ({ format, text }, timeZone) => {
        expect(disagreements([{ text, format, timeZone }])).toEqual([]);
      }),
      { numRuns: 20_000 },
    );
  }, 60_000);

  it('leaves formats it does not cover to luxon unchanged', () => {
    // Near misses of the fast formats: one-digit tokens, two-digit years, mixed separators, quotes.
    const formats = [
      'yyyy-M-d',
      'M/d/yyyy',
      'yy-MM-dd',
      'yyyy-MM/dd',
      "yyyy'-'MM'-'dd",
      'yyyy MM dd',
      'yyyyMMdd',
      'dd MMM yyyy',
    ];
    const cells = [
      '2026-03-15',
      '2026-3-5',
      '3/5/2026',
      '26-03-15',
      '2026-03/15',
      '2026 03 15',
      '20260315',
      '15 Mar 2026',
      '2026-02-30',
    ];
    expect(disagreements(formats.flatMap((format) => cells.map((text) => ({ text, format }))))).toEqual([]);
  });
});
