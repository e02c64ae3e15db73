import { DateTime, IANAZone, type TokenParser } from 'luxon';
import { memoised } from '../../memo/memoised.js';
import { fail, ok, quote, type TransformResult } from './result.js';

export interface DateOptions {
  /** A luxon token pattern, e.g. "dd.MM.yyyy" or "yyyy-MM-dd HH:mm"; text in quotes is literal. */
  readonly format: string;
  /** IANA zone the written wall-clock time is in, e.g. "Europe/Berlin"; ignored for dates. */
  readonly timeZone: string;
  /** Locale for month and weekday names in the pattern; fixed by default so the host never matters. */
  readonly locale?: string;
}

// Luxon tokens that carry a time of day, an offset or an instant (luxon docs, "Table of tokens").
const TIME_TOKENS = /[HhmsSuaZzXxTtFf]/;
// Tokens whose value is already an instant or carries its own offset.
const OFFSET_TOKENS = /[ZzXx]/;
// Luxon fills a missing year from the clock, which would make this function depend on "now".
const YEAR_TOKENS = /[ykDfFXx]/;

/**
 * `format: iso`: any ISO 8601 date or date-time, as APIs and their exports write them, with or
 * without seconds, fractions of a second and an offset on the same column (`2000-01-01T20:05:30Z`
 * beside `2001-02-04T00:00:00.888Z`), which no one luxon pattern reads.
 */
export const isoFormat = 'iso';

const isoDateOnly = /^\d{4}-\d{2}-\d{2}$/;
const isoShape = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** An ISO 8601 cell: a date alone as its calendar date, a time without an offset in `timeZone`. */
function isoDateTime(text: string, timeZone: string): TransformResult<string> {
  if (!isValidZone(timeZone)) {
    return fail(
      'time_zone_unknown',
      `date.timeZone: expected an IANA time zone like "Europe/Berlin", got ${quote(timeZone)}`,
    );
  }
  const trimmed = text.trim();
  if (trimmed === '') return fail('date_empty', 'date: expected an ISO 8601 date, got an empty cell');
  const expected =
    'an ISO 8601 date or date-time ("2026-03-15", "2026-03-15T20:05:30Z", "2026-03-15T20:05:30.888+01:00")';
  if (!isoShape.test(trimmed)) return fail('date_format', `date: expected ${expected}, got ${quote(trimmed)}`);
  const parsed = DateTime.fromISO(trimmed, { zone: isoDateOnly.test(trimmed) ? 'UTC' : timeZone });
  if (!parsed.isValid) return fail('date_invalid', `date: expected an existing date, got ${quote(trimmed)}`);
  return ok(parsed.toUTC().toISO());
}

/**
 * A date or date-time cell to an ISO 8601 UTC string ("…Z").
 *
 * Date-only patterns give the calendar date exactly as written, at 00:00:00.000Z, whatever the
 * zone: the date a cardholder or issuer gave is a calendar date, not an instant, and turning it
 * into one in any zone other than UTC makes it read as the day before or after somewhere
 * (the day shift other bulk loaders are known for). Patterns with a time are read as wall-clock
 * time in `timeZone` (or in the offset the text carries) and converted to UTC.
 *
 * Never uses the process time zone or locale: every parse names its zone and locale.
 */
export function toDateTime(text: string, options: DateOptions): TransformResult<string> {
  if (options.format === isoFormat) return isoDateTime(text, options.timeZone);
  const pattern = literalFree(options.format);
  if (!YEAR_TOKENS.test(pattern)) {
    return fail('options_invalid', `date.format: expected a pattern with a year, got ${quote(options.format)}`);
  }
  const { luxonFormat: format, problem } = readingOf(options.format);
  if (problem !== undefined) return fail('options_invalid', `date.format: ${problem}`);
  if (!isValidZone(options.timeZone)) {
    return fail(
      'time_zone_unknown',
      `date.timeZone: expected an IANA time zone like "Europe/Berlin", got ${quote(options.timeZone)}`,
    );
  }
  const trimmed = text.trim();
  if (trimmed === '') return fail('date_empty', `date: expected a date as ${quote(options.format)}, got an empty cell`);

  const locale = options.locale ?? 'en-US';
  const calendarDate = locale === 'en-US' ? plainDate(trimmed, format) : undefined;
  if (calendarDate !== undefined) return ok(calendarDate);
  // Parsed in UTC, the fields are exactly what was written (unless the text carries an offset).
  const parser = parserFor(format, locale);
  const asWritten = DateTime.fromFormatParser(trimmed, parser, { zone: 'UTC', locale });
  if (!asWritten.isValid) {
    // "unit out of range" is a well-formed date that does not exist, like 2026-02-30.
    const code = asWritten.invalidReason === 'unit out of range' ? 'date_invalid' : 'date_format';
    const what = code === 'date_invalid' ? 'an existing date' : `a date as ${quote(options.format)}`;
    return fail(code, `date: expected ${what}, got ${quote(trimmed)}`);
  }
  if (!TIME_TOKENS.test(pattern)) return ok(asWritten.toISO());

  const zoned = DateTime.fromFormatParser(trimmed, parser, { zone: options.timeZone, locale });
  if (!zoned.isValid)
    return fail('date_format', `date: expected a date as ${quote(options.format)}, got ${quote(trimmed)}`);
  // Luxon moves a time in a spring-forward gap silently; such a time was never on any clock there.
  if (!OFFSET_TOKENS.test(pattern) && !sameWallClock(asWritten, zoned)) {
    return fail(
      'date_nonexistent_local_time',
      `date: expected a local time that exists in ${options.timeZone}, got ${quote(trimmed)} (skipped by a daylight-saving change)`,
    );
  }
  return ok(zoned.toUTC().toISO());
}

/**
 * A format as luxon reads it: the day of the year as published layouts write it, Java's and
 * COBOL's `DDD` (`yyyyDDD`, `2017141` is 2017-05-21), becomes luxon's `ooo`. Luxon's own `DDD` is
 * a whole localized date ("May 21, 2017"), which beside a year token can only be a misreading, so
 * it is translated only there; a `DDD` alone, or in quotes, stays luxon's (docs/mappings.md, "Dates
 * without separators, and deadlines"). Workbook date cells are written back in this format too.
 */
export function luxonDateFormat(format: string): string {
  return readingOf(format).luxonFormat;
}

/**
 * A `D`, `DD` or `DDDD` beside a year token (Java's unpadded day of the year, or a typo): luxon
 * reads each as a whole localized date, so every cell would fail as a date_format that does not
 * say why; the mapping is refused instead, naming the token that reads a day of the year.
 */
export function dayOfYearProblem(format: string): string | undefined {
  return readingOf(format).problem;
}

interface FormatReading {
  readonly luxonFormat: string;
  readonly problem?: string;
}

/** Worked out once per format: the transform asks for every cell of a column. */
const readingOf = memoised(1000, translatedFormat);

function translatedFormat(format: string): FormatReading {
  if (format === isoFormat || !/y/.test(literalFree(format))) return { luxonFormat: format };
  const luxonFormat = unquotedParts(format)
    .map((part) => (part.startsWith("'") ? part : part.replace(/(?<!D)DDD(?!D)/g, 'ooo')))
    .join('');
  if (!/D/.test(literalFree(luxonFormat))) return { luxonFormat };
  return {
    luxonFormat,
    problem:
      `expected DDD or ooo for a day of the year (or MM and dd for a month and day) beside a year, ` +
      `got ${quote(format)} (D, DD and DDDD are a whole localized date in luxon)`,
  };
}

/** `yyyy'D'DDD` → `yyyy`, `'D'`, `DDD`: text in quotes is literal. */
function unquotedParts(format: string): string[] {
  return format.split(/('[^']*')/).filter((part) => part !== '');
}

/**
 * The fast path for the all-digit date formats exports use most (`yyyy-MM-dd`, `MM/dd/yyyy`,
 * `dd.MM.yyyy`, `yyyyMMdd`, ...): luxon takes several microseconds per cell for them (its generic token
 * matching and a DateTime object), which a million-row file pays twice per row.
 *
 * It answers only for a cell that matches the format exactly (ASCII digits, as luxon's en-US
 * parser reads them) and names an existing date, with what luxon gives for it: that calendar date
 * at midnight UTC. Anything else (another format, a letter, 2026-02-30) returns undefined and
 * takes luxon's path, so every error and its message stays luxon's. A property test checks it
 * against luxon (test/mapping/transforms/date-fast-path.test.ts).
 */
function plainDate(text: string, format: string): string | undefined {
  const layout = plainLayoutOf(format);
  if (layout === undefined) return undefined;
  const match = layout.regex.exec(text);
  if (match === null) return undefined;
  const year = match[layout.year] ?? '';
  const month = match[layout.month] ?? '';
  const day = match[layout.day] ?? '';
  const monthNumber = Number(month);
  const dayNumber = Number(day);
  if (monthNumber < 1 || monthNumber > 12 || dayNumber < 1 || dayNumber > daysInMonth(Number(year), monthNumber))
    return undefined;
  return `${year}-${month}-${day}T00:00:00.000Z`;
}

interface PlainLayout {
  readonly regex: RegExp;
  /** The regex's capture group of each part. */
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/**
 * yyyy, MM and dd, each once, in any order, with one of - / . between them or nothing (the
 * `yyyyMMdd` of bank reports), and nothing else.
 */
const PLAIN_FORMAT = /^(yyyy|MM|dd)([-/.]?)(yyyy|MM|dd)\2(yyyy|MM|dd)$/;
const plainLayoutOf = memoised(1000, plainLayout);
function plainLayout(format: string): PlainLayout | undefined {
  let layout: PlainLayout | undefined;
  const parts = PLAIN_FORMAT.exec(format);
  if (parts !== null) {
    const separator = parts[2] ?? '';
    const tokens = [parts[1], parts[3], parts[4]];
    const [year, month, day] = ['yyyy', 'MM', 'dd'].map((token) => tokens.indexOf(token) + 1);
    if (year !== undefined && month !== undefined && day !== undefined && year > 0 && month > 0 && day > 0) {
      const digits = tokens.map((token) => (token === 'yyyy' ? '([0-9]{4})' : '([0-9]{2})'));
      const between = separator === '' ? '' : `\\${separator}`;
      layout = { regex: new RegExp(`^${digits.join(between)}$`), year, month, day };
    }
  }
  return layout;
}

/** Days in a month of the proleptic Gregorian calendar (luxon's, for every year). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Luxon compiles a format into a parser on every fromFormat call; a mapping has a few formats. */
const parsers = new Map<string, TokenParser>();
function parserFor(format: string, locale: string): TokenParser {
  const key = `${locale}\u0000${format}`;
  let parser = parsers.get(key);
  if (parser === undefined) {
    parser = DateTime.buildFormatParser(format, { locale });
    if (parsers.size < 1000) parsers.set(key, parser);
  }
  return parser;
}

/**
 * Luxon checks a zone by building a new Intl.DateTimeFormat each time; called for every cell of
 * a million-row file that costs hundreds of MB of native memory. A mapping names a few zones.
 */
const isValidZone = memoised(1000, (zone: string) => IANAZone.isValidZone(zone));

function literalFree(format: string): string {
  return format.replace(/'[^']*'/g, '');
}

function sameWallClock(left: DateTime<true>, right: DateTime<true>): boolean {
  return (['year', 'month', 'day', 'hour', 'minute', 'second', 'millisecond'] as const).every(
    (unit) => left.get(unit) === right.get(unit),
  );
}
