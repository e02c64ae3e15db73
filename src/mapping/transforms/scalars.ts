import { fail, ok, quote, type TransformResult } from './result.js';

/** A missing column and an empty cell mean the same thing to a mapping. */
export type Cell = string | undefined;

function isBlank(value: Cell): value is undefined | '' {
  return value === undefined || value.trim() === '';
}

export function trim(value: string): TransformResult<string> {
  return ok(value.trim());
}

/** Locale-independent on purpose: a Turkish host must not turn "i" into "İ". */
export function changeCase(value: string, to: 'upper' | 'lower'): TransformResult<string> {
  return ok(to === 'upper' ? value.toUpperCase() : value.toLowerCase());
}

/** Whole numbers only, optionally signed; "12.0", "1e3" and "0x10" are errors. */
export function toInteger(value: string): TransformResult<number> {
  const trimmed = value.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) {
    return fail('integer_invalid', `integer: expected a whole number, got ${quote(trimmed)}`);
  }
  const parsed = Number(trimmed);
  if (!Number.isSafeInteger(parsed)) {
    return fail(
      'integer_out_of_range',
      `integer: expected a number between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}, got ${quote(trimmed)}`,
    );
  }
  return ok(parsed);
}

const TRUE_WORDS = new Set(['yes', 'y', '1', 'true']);
const FALSE_WORDS = new Set(['no', 'n', '0', 'false']);

/** The architecture's list exactly (yes/no/y/n/1/0/true/false); "x" or "" is not a guess. */
export function toBoolean(value: string): TransformResult<boolean> {
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return ok(true);
  if (FALSE_WORDS.has(word)) return ok(false);
  return fail('boolean_invalid', `boolean: expected one of yes/no/y/n/1/0/true/false, got ${quote(value.trim())}`);
}

export interface EnumOptions {
  /** Default true: a mapping opts in to matching "Fraud" with "fraud". */
  readonly caseSensitive?: boolean;
}

/**
 * Maps a cell through a table. An unmapped value is a row error, never passed through
 * (mappings/README.md): the service would take it for a value it knows. Keys are looked up as
 * own entries only, so "constructor" or "__proto__" in a cell cannot hit Object.prototype.
 */
export function mapEnum<T>(
  value: string,
  map: Readonly<Record<string, T>>,
  options: EnumOptions = {},
): TransformResult<T> {
  const caseSensitive = options.caseSensitive ?? true;
  const fold = (key: string): string => (caseSensitive ? key : key.toLowerCase());
  const table = new Map<string, T>();
  for (const [key, target] of Object.entries(map)) {
    const folded = fold(key);
    if (table.has(folded) && table.get(folded) !== target) {
      return fail(
        'options_invalid',
        `enum: expected keys distinct ignoring case, got two spellings of ${quote(folded)}`,
      );
    }
    table.set(folded, target);
  }
  const folded = fold(value);
  if (table.has(folded)) return ok(table.get(folded) as T);
  const expected = Object.keys(map).map(quote).join(', ');
  return fail('enum_unmapped', `enum: expected one of ${expected}, got ${quote(value)}`);
}

/** One part of a split cell, e.g. the month of an expiry "12/28" with separator "/" and index 0. */
export function split(value: string, separator: string, index: number): TransformResult<string> {
  const parts = splitAll(value, separator);
  if (!parts.ok) return parts;
  if (!Number.isSafeInteger(index) || index < 0) {
    return fail('options_invalid', `split.index: expected a whole number from 0, got ${index}`);
  }
  const part = parts.value[index];
  if (part === undefined) {
    return fail(
      'split_part_missing',
      `split: expected at least ${index + 1} parts separated by ${quote(separator)}, got ${quote(value)}`,
    );
  }
  return ok(part);
}

export interface SplitOptions {
  /** When set, a cell with any other number of parts is an error ("12/28/1" is not an expiry). */
  readonly parts?: number;
}

/** All parts of a split cell: "12/28" with "/" is ["12", "28"]. */
export function splitAll(value: string, separator: string, options: SplitOptions = {}): TransformResult<string[]> {
  // An empty separator would split into characters, which no mapping means.
  if (separator === '') return fail('options_invalid', 'split.separator: expected a non-empty string, got ""');
  const parts = value.split(separator);
  if (options.parts !== undefined && parts.length !== options.parts) {
    return fail(
      'split_parts_count',
      `split: expected ${options.parts} parts separated by ${quote(separator)}, got ${parts.length} in ${quote(value)}`,
    );
  }
  return ok(parts);
}

/** A blank or whitespace-only cell becomes the fallback; anything else is kept as is. */
export function withDefault(value: Cell, fallback: string): TransformResult<string> {
  return ok(isBlank(value) ? fallback : value);
}

/** A blank or whitespace-only cell is a row error naming the field. */
export function required(value: Cell, field = 'value'): TransformResult<string> {
  if (isBlank(value)) return fail('required_missing', `${field}: expected a value, got an empty cell`);
  return ok(value);
}
