import { minorUnitExponent } from './currency.js';
import { fail, ok, quote, type TransformResult } from './result.js';

export type DecimalSeparator = '.' | ',';
export type GroupSeparator = ',' | '.' | ' ' | "'" | '';

/**
 * What a negative amount means for a field (docs/mappings.md, "Amounts and signs as banks write
 * them"): `refuse` (the default) makes it a row error, `amount_negative`, as a credit row should
 * be; `magnitude` reads it as its size, for a report that writes a chargeback as a debit.
 */
export type NegativeAmounts = 'refuse' | 'magnitude';

/** The sign a row's other column gives its amount (a field's `sign_column`), read by signOfColumn. */
export interface ColumnSign {
  readonly column: string;
  /** The cell as written, for the messages. */
  readonly written: string;
  readonly negative: boolean;
}

export interface AmountOptions {
  /** ISO 4217 alphabetic code, upper case. */
  readonly currency: string;
  /**
   * Always explicit: `9,99` means 999 or 9.99 depending only on this, never on a guess from the
   * cells. Exactly one of this and `impliedDecimals`.
   */
  readonly decimalSeparator?: DecimalSeparator;
  /**
   * The cell has no separator and its last N digits are the decimals, as fixed-width files write
   * amounts (`000000001235` with 2 is 12.35; docs/mappings.md, "Amounts and signs as banks write
   * them"). N is the file's, not the currency's: the digits past the currency's exponent must be zeros.
   */
  readonly impliedDecimals?: number;
  /** Absent or '' means digits may not be grouped at all; always so with `impliedDecimals`. */
  readonly groupSeparator?: GroupSeparator;
  /** Absent means `refuse`. */
  readonly negative?: NegativeAmounts;
  /** The row's sign column, when the field names one: an unsigned cell takes its sign. */
  readonly columnSign?: ColumnSign;
}

/** An amount as written: its size in minor units and whether its cell carries a minus. */
export interface WrittenAmount {
  readonly minorUnits: number;
  readonly negative: boolean;
}

const DECIMAL_SEPARATORS: readonly string[] = ['.', ','];
const GROUP_SEPARATORS: readonly string[] = [',', '.', ' ', "'", ''];
/** A Number holds 15 digits exactly: a field with more decimals than that has no whole digits worth reading. */
export const maxImpliedDecimals = 15;

/**
 * A decimal string to an integer in the currency's minor units: "1.234,56" EUR with decimal ','
 * and group '.' is 123456. Strict by design: anything that could be read two ways, or would need
 * rounding, is an error rather than a guess. Works on the digit string (never floating point).
 * Never negative: a negative amount is refused, or read as its magnitude (`negative`).
 */
export function toMinorUnits(text: string, options: AmountOptions): TransformResult<number> {
  const written = readAmount(text, options);
  if (!written.ok) return written;
  const trimmed = text.trim();
  let negative = written.value.negative;
  const { columnSign } = options;
  if (columnSign !== undefined) {
    // A cell's own sign may repeat the column's; a cell that says otherwise reads two ways.
    if (negative && !columnSign.negative) {
      return fail(
        'amount_sign_conflict',
        `amount: expected a sign that agrees with column ${JSON.stringify(columnSign.column)} ` +
          `(${quote(columnSign.written)}, positive), got ${quote(trimmed)}`,
      );
    }
    negative = columnSign.negative;
  }
  if (negative && (options.negative ?? 'refuse') === 'refuse') {
    const because =
      columnSign === undefined
        ? ''
        : ` with ${quote(columnSign.written)} in column ${JSON.stringify(columnSign.column)}, a negative sign`;
    return fail(
      'amount_negative',
      `amount: expected a positive amount, got ${quote(trimmed)}${because} (negative: magnitude reads a debit as its size)`,
    );
  }
  return ok(written.value.minorUnits);
}

/**
 * The amount a cell writes, sign apart: `-1.50`, `1.50-`, `−1.50` (U+2212) and `(1.50)` are 150
 * and negative. Zeros past the currency's exponent are no precision (`1.50000000` USD is 150,
 * `3400.000` JPY is 3400); any other digit there is (`1.505` USD is `amount_precision`). With
 * implied decimals the same holds of the digits the cell's last N are: `000000123400` with 2 is
 * 1234 JPY, `000000001235` with 2 is `amount_precision` in JPY.
 */
export function readAmount(text: string, options: AmountOptions): TransformResult<WrittenAmount> {
  const optionsProblem = checkOptions(options);
  if (optionsProblem !== undefined) return optionsProblem;
  const exponent = minorUnitExponent(options.currency);
  if (!exponent.ok) return exponent;

  const trimmed = text.trim();
  if (trimmed === '') return fail('amount_empty', 'amount: expected a decimal number, got an empty cell');
  const { body, negative } = withoutSign(trimmed);
  const parts =
    options.impliedDecimals === undefined ? separatedParts(body, options) : impliedParts(body, options.impliedDecimals);
  if (parts === undefined) return formatError(trimmed, options);

  // Reports pad every amount to a fixed number of decimals: zeros past the exponent say nothing.
  const fraction = parts.fraction.slice(0, exponent.value);
  // No rounding: "12.345" USD or "12.5" JPY is a data problem the issuer has to look at.
  if (!/^0*$/.test(parts.fraction.slice(exponent.value))) {
    const reading =
      options.impliedDecimals === undefined
        ? ''
        : ` (${parts.integer.replace(/^0+(?=\d)/, '')}.${parts.fraction} with ${impliedDecimalsText(options.impliedDecimals)})`;
    return fail(
      'amount_precision',
      `amount: expected at most ${exponent.value} fraction digits for ${options.currency} (or zeros after them), got ${quote(trimmed)}${reading}`,
    );
  }
  let digits = parts.integer + fraction.padEnd(exponent.value, '0');
  // Fixed-width files pad with zeros to any length; without them most amounts stay on the Number path.
  if (digits.length > 15) digits = digits.replace(/^0+(?=\d)/, '');
  // Up to 15 digits are below 2^53 and exact as a Number; BigInt (slower) only for longer ones.
  if (digits.length <= 15) return ok({ minorUnits: Number(digits), negative });
  const minorUnits = BigInt(digits);
  if (minorUnits > BigInt(Number.MAX_SAFE_INTEGER)) {
    return fail(
      'amount_too_large',
      `amount: expected at most ${Number.MAX_SAFE_INTEGER} minor units, got ${quote(trimmed)}`,
    );
  }
  return ok({ minorUnits: Number(minorUnits), negative });
}

/** An amount's digits either side of its decimal point, sign apart. */
interface AmountParts {
  readonly integer: string;
  readonly fraction: string;
}

/** `1.234,56` with decimal ',' and group '.': 1234 and 56; undefined when malformed. */
function separatedParts(body: string, options: AmountOptions): AmountParts | undefined {
  const parts = body.split(options.decimalSeparator ?? '.');
  const fraction = parts[1];
  if (parts.length > 2 || (fraction !== undefined && !/^\d+$/.test(fraction))) return undefined;
  const integer = groupedDigits(parts[0] ?? '', options.groupSeparator ?? '');
  return integer === undefined ? undefined : { integer, fraction: fraction ?? '' };
}

/**
 * `000000001235` with 2 implied decimals: 0000000012 and 35; `5` is 0 and 05. Digits only: a
 * separator in such a cell says the column is not what the mapping thinks it is.
 */
function impliedParts(body: string, impliedDecimals: number): AmountParts | undefined {
  if (!/^\d+$/.test(body)) return undefined;
  const padded = body.padStart(impliedDecimals + 1, '0');
  const point = padded.length - impliedDecimals;
  return { integer: padded.slice(0, point), fraction: padded.slice(point) };
}

function impliedDecimalsText(impliedDecimals: number): string {
  return `${impliedDecimals} implied decimal${impliedDecimals === 1 ? '' : 's'}`;
}

/** The ways a report writes a debit: a leading or trailing minus (or U+2212), accounting parentheses. */
function withoutSign(trimmed: string): { body: string; negative: boolean } {
  if (/^\(.*\)$/.test(trimmed)) return { body: trimmed.slice(1, -1), negative: true };
  if (/^[-\u2212]/.test(trimmed)) return { body: trimmed.slice(1), negative: true };
  if (/[-\u2212]$/.test(trimmed)) return { body: trimmed.slice(0, -1), negative: true };
  return { body: trimmed, negative: false };
}

function checkOptions(options: AmountOptions): TransformResult<never> | undefined {
  const group = options.groupSeparator ?? '';
  // The options come from a parsed mapping file, so the unions are checked at run time too.
  if (options.impliedDecimals !== undefined) return checkImpliedOptions(options.impliedDecimals, options, group);
  if (!DECIMAL_SEPARATORS.includes(options.decimalSeparator ?? '')) {
    return fail(
      'options_invalid',
      `amount.decimalSeparator: expected "." or ",", got ${quote(options.decimalSeparator ?? '')}`,
    );
  }
  if (!GROUP_SEPARATORS.includes(group)) {
    return fail('options_invalid', `amount.groupSeparator: expected one of "," "." " " "'" "", got ${quote(group)}`);
  }
  if (group === options.decimalSeparator) {
    return fail(
      'options_invalid',
      `amount.groupSeparator: expected a character other than the decimal separator, got ${quote(group)}`,
    );
  }
  return undefined;
}

function checkImpliedOptions(
  impliedDecimals: number,
  options: AmountOptions,
  group: string,
): TransformResult<never> | undefined {
  if (!Number.isInteger(impliedDecimals) || impliedDecimals < 0 || impliedDecimals > maxImpliedDecimals) {
    return fail(
      'options_invalid',
      `amount.impliedDecimals: expected a whole number from 0 to ${maxImpliedDecimals}, got ${String(impliedDecimals)}`,
    );
  }
  if (options.decimalSeparator !== undefined) {
    return fail(
      'options_invalid',
      `amount.decimalSeparator: expected none with impliedDecimals, got ${quote(options.decimalSeparator)}`,
    );
  }
  if (group !== '') {
    return fail('options_invalid', `amount.groupSeparator: expected none with impliedDecimals, got ${quote(group)}`);
  }
  return undefined;
}

/**
 * The digits of an integer part, or undefined when it is malformed. With a group separator,
 * either no grouping at all or groups of exactly three after a first group of one to three:
 * "1.23.4" and "12.34" are errors.
 */
function groupedDigits(integerPart: string, group: string): string | undefined {
  if (/^\d+$/.test(integerPart)) return integerPart;
  if (group === '') return undefined;
  // A space group also matches the no-break spaces spreadsheets write (fr-FR uses U+202F).
  const separator = group === ' ' ? '[ \\u00A0\\u202F]' : escapeRegExp(group);
  if (!new RegExp(`^\\d{1,3}(?:${separator}\\d{3})+$`).test(integerPart)) return undefined;
  return integerPart.replace(/\D/g, '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function formatError(trimmed: string, options: AmountOptions): TransformResult<never> {
  if (options.impliedDecimals !== undefined) {
    return fail(
      'amount_format',
      `amount: expected digits only (${impliedDecimalsText(options.impliedDecimals)}, no decimal separator), got ${quote(trimmed)}`,
    );
  }
  const group = options.groupSeparator ?? '';
  const grouping = group === '' ? 'no digit grouping' : `${quote(group)} grouping digits by three`;
  return fail(
    'amount_format',
    `amount: expected digits with ${quote(options.decimalSeparator ?? '.')} as decimal separator and ${grouping}, got ${quote(trimmed)}`,
  );
}
