/**
 * Field boundaries one can see across records of one type, without their published layout: a
 * column where every record has a space separates fields; between separators, a run of columns
 * that are digits in every record is a number, split further where it holds `yyyyMMdd` dates side
 * by side, and an amount (`-0000000000089.95`: a sign column, zero padding, a decimal point in one
 * place) is cut out of the run it is written against. Anything else is one text field. Adjacent
 * fields without a separator (a reason code and a number) cannot always be told apart: every field
 * found is a guess a person checks against the layout.
 */
export type FieldKind = 'amount' | 'date' | 'julian_date' | 'number' | 'text';

export interface FieldRun {
  /** 0-based, inclusive. */
  readonly first: number;
  readonly last: number;
  readonly kind: FieldKind;
}

/** A dispute's date falls in these years: 8 digits that read as a date outside them are a number. */
const plausibleYears = { first: 1970, last: 2099 };

/** Columns where a record holds a character of `test` in every record; a short record reads as spaces past its end. */
function columnsWhere(records: readonly string[], length: number, test: (character: string) => boolean): boolean[] {
  return Array.from({ length }, (_, column) => records.every((record) => test(record[column] ?? ' ')));
}

const isDigit = (character: string) => character >= '0' && character <= '9';
const isSign = (character: string) => character === '-' || character === '+';

export function fieldRuns(records: readonly string[], length: number, skip: readonly [number, number]): FieldRun[] {
  if (records.length === 0) return [];
  const blank = columnsWhere(records, length, (character) => character === ' ');
  const runs: FieldRun[] = [];
  let column = 0;
  while (column < length) {
    if (blank[column] === true || (column >= skip[0] && column <= skip[1])) {
      column++;
      continue;
    }
    let last = column;
    while (last + 1 < length && blank[last + 1] !== true && !(last + 1 >= skip[0] && last + 1 <= skip[1])) last++;
    runs.push(...splitRun(records, column, last));
    column = last + 1;
  }
  return runs;
}

/** A run of columns with characters, as amounts, dates, numbers and text. */
function splitRun(records: readonly string[], first: number, last: number): FieldRun[] {
  const slice = (from: number, to: number) => records.map((record) => record.slice(from, to + 1));
  const amount = findAmount(records, first, last);
  if (amount !== undefined)
    return [
      ...(amount.first > first ? splitRun(records, first, amount.first - 1) : []),
      { first: amount.first, last: amount.last, kind: 'amount' },
      ...(amount.last < last ? splitRun(records, amount.last + 1, last) : []),
    ];
  if (!slice(first, last).every((value) => /^\d+$/.test(value))) return [{ first, last, kind: 'text' }];
  // Digits: dates side by side (a date of adjustment beside a date of charge), else one number.
  const fields: FieldRun[] = [];
  let at = first;
  while (last - at + 1 >= 8 && slice(at, at + 7).every(isCompactDate)) {
    fields.push({ first: at, last: at + 7, kind: 'date' });
    at += 8;
  }
  if (at <= last) {
    const rest = slice(at, last);
    const kind = last - at + 1 === 7 && rest.every(isJulianDate) ? 'julian_date' : 'number';
    fields.push({ first: at, last, kind });
  }
  return fields;
}

/**
 * An amount written with its decimal point in one place: the point's column, the digits after it,
 * and to its left the digits back to a sign column (`-`/`+` in some record) or, past the zero
 * padding, to the first column that is not zeros.
 */
function findAmount(
  records: readonly string[],
  first: number,
  last: number,
): { first: number; last: number } | undefined {
  const digits = (column: number) => records.every((record) => isDigit(record[column] ?? ' '));
  for (let point = first + 1; point < last; point++) {
    if (!records.every((record) => record[point] === '.') || !digits(point - 1) || !digits(point + 1)) continue;
    let end = point + 1;
    while (end + 1 <= last && digits(end + 1)) end++;
    return { first: amountStart(records, first, point), last: end };
  }
  return undefined;
}

/** Where an amount whose decimal point is at `point` starts: its sign column, else where its zero padding ends. */
function amountStart(records: readonly string[], first: number, point: number): number {
  const charactersAt = (column: number) => records.map((record) => record[column] ?? ' ');
  let digitsFrom = point - 1;
  while (digitsFrom - 1 >= first && charactersAt(digitsFrom - 1).every(isDigit)) digitsFrom--;
  const before = digitsFrom - 1 >= first ? charactersAt(digitsFrom - 1) : [];
  if (before.some(isSign) && before.every((character) => isSign(character) || isDigit(character)))
    return digitsFrom - 1;
  // No sign: the amount's own digits, then its zero padding; digits before the padding are another field's.
  let start = point - 1;
  let padded = false;
  for (let column = point - 2; column >= digitsFrom; column--) {
    const zeros = charactersAt(column).every((character) => character === '0');
    if (padded && !zeros) break;
    padded ||= zeros;
    start = column;
  }
  return start;
}

function isCompactDate(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(4, 6));
  const day = Number(value.slice(6, 8));
  if (year < plausibleYears.first || year > plausibleYears.last || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `yyyyDDD`: a year and its day, 001 to 365 (366 in a leap year). */
export function isJulianDate(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const day = Number(value.slice(4, 7));
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return year >= plausibleYears.first && year <= plausibleYears.last && day >= 1 && day <= (leap ? 366 : 365);
}
