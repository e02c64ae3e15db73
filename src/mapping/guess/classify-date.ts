import { isoFormat } from '../transforms/date.js';
import { toDateTime } from '../transforms/index.js';
import type { Confidence } from './types.js';

export type DateGuess =
  | {
      readonly kind: 'date';
      readonly format: string;
      /** A time of day without an offset: the export's time zone is a person's to say. */
      readonly needsTimeZone: boolean;
      readonly hasTime: boolean;
      readonly confidence: Confidence;
      readonly evidence: string;
    }
  /** Day-first and month-first both read every value (no day above 12): a person decides. */
  | { readonly kind: 'ambiguous'; readonly formats: readonly string[]; readonly evidence: string };

export interface DateClassifyOptions {
  /** Whether six digits may be `yyMMdd`: only for a column whose header names a date. */
  readonly sixDigits?: boolean;
}

const minimumShare = 0.9;
/** `20240703`, `240703`, `20240703 14:30[:00]`: the dates of bank reports, without separators. */
const compactShape = /^(\d{8}|\d{6})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/;
/** The years a dispute's date can fall in: an 8-digit number that reads as a date outside them is no date. */
const plausibleYears = { first: 1970, last: 2099 };
/** Distinct values tried per format: enough to meet a day above 12, bounded for speed. */
const maxDistinct = 5000;

// date part (three numbers, one separator), then an optional time and offset.
const shape =
  /^(\d{1,4})([-./])(\d{1,2})\2(\d{2}|\d{4})(?:([ T])(\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?\s?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The luxon format of a date or date-time column, tried with the date transform itself, so the
 * format found is one the import reads the same way. Candidates come from the values' shapes:
 * `2026-03-15`, `15.03.2026`, `03/15/2026`, `3/5/26`, with `HH:mm[:ss[.SSS]]` after a space or `T`,
 * and `Z` or an offset; and bank reports' `20240703` (classifyCompactDate). Day-first and month-first formats are both tried: a value above 12 in the
 * first place rules month-first out (and the other way round); when none does, the column is
 * ambiguous and flagged, never guessed.
 */
export function classifyDate(values: readonly string[], options: DateClassifyOptions = {}): DateGuess | undefined {
  if (values.length === 0) return undefined;
  if (compactShape.test(values[0] ?? '')) return classifyCompactDate(values, options.sixDigits === true);
  const candidates = candidateFormats(values);
  if (candidates.length === 0) return undefined;
  const distinct = countDistinct(values);
  const scored = candidates.map((format) => ({ format, read: readCount(distinct, format) }));
  const best = Math.max(...scored.map((candidate) => candidate.read));
  if (best < values.length * minimumShare) return classifyIsoDate(values);
  const viable = scored.filter((candidate) => candidate.read === best).map((candidate) => candidate.format);

  // Two-digit tokens where they read as much as one-digit ones: stricter, and the fast path.
  const byOrder = new Map<string, string>();
  for (const format of viable) {
    const order = orderOf(format);
    const kept = byOrder.get(order);
    if (kept === undefined || format.length > kept.length) byOrder.set(order, format);
  }
  const formats = [...byOrder.values()];
  const unread = values.length - best;
  const unreadNote =
    unread === 0
      ? ''
      : `; ${unread} of ${values.length} cells read with no format, e.g. ${JSON.stringify(values.find((value) => !reads(value, formats[0] ?? '')) ?? '')}`;
  if (formats.length > 1) {
    return {
      kind: 'ambiguous',
      formats,
      evidence: `${formats.map((format) => JSON.stringify(format)).join(' and ')} both read every value: no day above 12 tells day from month${unreadNote}`,
    };
  }
  const format = formats[0] ?? '';
  const hasTime = /[Hh]/.test(format.replace(/'[^']*'/g, ''));
  const needsTimeZone = hasTime && !/Z|'Z'/.test(format);
  const decidedBy = decidingValue(values, format);
  const evidence = `format ${JSON.stringify(format)}${decidedBy === undefined ? '' : `, ${decidedBy}`}${unreadNote}`;
  return { kind: 'date', format, hasTime, needsTimeZone, confidence: unread === 0 ? 'high' : 'medium', evidence };
}

/**
 * ISO 8601 date-times that no one pattern reads: with and without fractions of a second (or an
 * offset) in one column, as APIs write them. Every value must read.
 */
function classifyIsoDate(values: readonly string[]): DateGuess | undefined {
  if (!values.every((value) => toDateTime(value, { format: isoFormat, timeZone: 'UTC' }).ok)) return undefined;
  const hasTime = values.some((value) => value.includes('T'));
  const needsTimeZone = values.some((value) => value.includes('T') && !/(?:Z|[+-]\d{2}(?::?\d{2})?)$/.test(value));
  return {
    kind: 'date',
    format: isoFormat,
    hasTime,
    needsTimeZone,
    confidence: 'high',
    evidence: `ISO 8601 date-times written more than one way, e.g. ${[...new Set(values)]
      .slice(0, 2)
      .map((value) => JSON.stringify(value))
      .join(' and ')}: format "iso" reads them all`,
  };
}

function candidateFormats(values: readonly string[]): string[] {
  const formats = new Set<string>();
  for (const value of values.slice(0, 50)) {
    const match = shape.exec(value);
    if (match === null) continue;
    const [, first = '', separator = '', , last = '', timeSeparator, hour, , seconds, fraction, offset] = match;
    const year = last.length === 4 ? 'yyyy' : 'yy';
    const dateParts: string[][] =
      first.length === 4
        ? [
            ['yyyy', 'MM', 'dd'],
            ['yyyy', 'M', 'd'],
          ]
        : first.length <= 2
          ? [
              ['dd', 'MM', year],
              ['d', 'M', year],
              ['MM', 'dd', year],
              ['M', 'd', year],
            ]
          : [];
    const time = timeSeparator === undefined ? '' : timeFormat(timeSeparator, hour ?? '', seconds, fraction, offset);
    for (const parts of dateParts) formats.add(parts.join(separator) + time);
  }
  return [...formats];
}

function timeFormat(
  separator: string,
  hour: string,
  seconds: string | undefined,
  fraction: string | undefined,
  offset: string | undefined,
): string {
  let format = `${separator === 'T' ? "'T'" : ' '}${hour.length === 2 ? 'HH' : 'H'}:mm`;
  if (seconds !== undefined) format += ':ss';
  if (fraction !== undefined) format += `.${'S'.repeat(fraction.length - 1)}`;
  if (offset === 'Z') format += "'Z'";
  else if (offset !== undefined) format += offset.includes(':') ? 'ZZ' : 'ZZZ';
  return format;
}

function countDistinct(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) {
    if (counts.size >= maxDistinct && !counts.has(value)) continue;
    counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return counts;
}

function readCount(distinct: ReadonlyMap<string, number>, format: string): number {
  let read = 0;
  for (const [value, count] of distinct) if (reads(value, format)) read += count;
  return read;
}

function reads(value: string, format: string): boolean {
  return toDateTime(value, { format, timeZone: 'UTC' }).ok;
}

/** `d-M-y`, `M-d-y` or `y-M-d`: the order of the date's parts, whatever their width. */
function orderOf(format: string): string {
  return (format.match(/y+|M+|d+/g) ?? []).map((token) => token[0]).join('-');
}

/** For a day-first or month-first format, the value that rules the other order out. */
function decidingValue(values: readonly string[], format: string): string | undefined {
  const order = orderOf(format);
  if (order === 'y-M-d') return undefined;
  const dayPosition = order === 'd-M-y' ? 1 : 3;
  const value = values.find((candidate) => Number(shape.exec(candidate)?.[dayPosition] ?? 0) > 12);
  return value === undefined ? undefined : `${JSON.stringify(value)} has a day above 12`;
}

/**
 * A column of dates written without separators, `yyyyMMdd` (or `yyMMdd`, when allowed). Digits
 * alone are often other numbers (ids, amounts in cents), so the bar is higher than for dates
 * with separators: every sampled value has the same shape and is an existing date in a plausible
 * year (plausibleYears), else the column is not a date.
 */
function classifyCompactDate(values: readonly string[], sixDigits: boolean): DateGuess | undefined {
  const [, digits = '', hour, , seconds] = compactShape.exec(values[0] ?? '') ?? [];
  if (digits.length === 6 && !sixDigits) return undefined;
  const time = hour === undefined ? '' : seconds === undefined ? ' HH:mm' : ' HH:mm:ss';
  const format = `${digits.length === 8 ? 'yyyyMMdd' : 'yyMMdd'}${time}`;
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const value of countDistinct(values).keys()) {
    const match = compactShape.exec(value);
    if (
      match === null ||
      (match[1] ?? '').length !== digits.length ||
      (match[2] === undefined) !== (hour === undefined)
    )
      return undefined;
    const read = toDateTime(value, { format, timeZone: 'UTC' });
    if (!read.ok) return undefined;
    const year = Number(read.value.slice(0, 4));
    if (year < plausibleYears.first || year > plausibleYears.last) return undefined;
    first = Math.min(first, year);
    last = Math.max(last, year);
  }
  const years = first === last ? `in ${first}` : `from ${first} to ${last}`;
  return {
    kind: 'date',
    format,
    hasTime: time !== '',
    needsTimeZone: time !== '',
    // Six digits are read as a two-digit year, month and day only because the header says date.
    confidence: digits.length === 8 ? 'high' : 'medium',
    evidence:
      `format ${JSON.stringify(format)}, each of the ${values.length} sampled values an existing date ${years}` +
      (digits.length === 8 ? '' : ' (six digits read as year, month and day: check a few rows)'),
  };
}
