import { minorUnitExponent } from './currency.js';
import { fail, ok, quote, type TransformResult } from './result.js';

export type DecimalSeparator = '.' | ',';
export type GroupSeparator = ',' | '.' | ' ' | "'" | '';

export interface AmountOptions {
  /** ISO 4217 alphabetic code, upper case. */
  readonly currency: string;
  /** Always explicit: `9,99` means 999 or 9.99 depending only on this, never on a guess from the cells. */
  readonly decimalSeparator: DecimalSeparator;
  /** Absent or '' means digits may not be grouped at all. */
  readonly groupSeparator?: GroupSeparator;
}

const DECIMAL_SEPARATORS: readonly string[] = ['.', ','];
const GROUP_SEPARATORS: readonly string[] = [',', '.', ' ', "'", ''];

/**
 * A decimal string to an integer in the currency's minor units: "1.234,56" EUR with decimal ','
 * and group '.' is 123456. Strict by design: anything that could be read two ways, or would need
 * rounding, is an error rather than a guess. Works on the digit string (never floating point).
 */
export function toMinorUnits(text: string, options: AmountOptions): TransformResult<number> {
  const optionsProblem = checkOptions(options);
  if (optionsProblem !== undefined) return optionsProblem;
  const exponent = minorUnitExponent(options.currency);
  if (!exponent.ok) return exponent;

  const trimmed = text.trim();
  if (trimmed === '') return fail('amount_empty', 'amount: expected a decimal number, got an empty cell');
  // Disputed amounts are positive; a sign or accounting parentheses point at a credit row.
  if (/^[-−(]|[-−)]$/.test(trimmed)) {
    return fail('amount_negative', `amount: expected a positive amount, got ${quote(trimmed)}`);
  }

  const parts = trimmed.split(options.decimalSeparator);
  const integerPart = parts[0] ?? '';
  const fractionPart = parts[1];
  if (parts.length > 2 || (fractionPart !== undefined && !/^\d+$/.test(fractionPart))) {
    return formatError(trimmed, options);
  }
  const integerDigits = groupedDigits(integerPart, options.groupSeparator ?? '');
  if (integerDigits === undefined) return formatError(trimmed, options);

  const fraction = fractionPart ?? '';
  // No rounding: "12.345" USD or "12.5" JPY is a data problem the issuer has to look at.
  if (fraction.length > exponent.value) {
    return fail(
      'amount_precision',
      `amount: expected at most ${exponent.value} fraction digits for ${options.currency}, got ${quote(trimmed)}`,
    );
  }
  const digits = integerDigits + fraction.padEnd(exponent.value, '0');
  // Up to 15 digits are below 2^53 and exact as a Number; BigInt (slower) only for longer ones.
  if (digits.length <= 15) return ok(Number(digits));
  const minorUnits = BigInt(digits);
  if (minorUnits > BigInt(Number.MAX_SAFE_INTEGER)) {
    return fail(
      'amount_too_large',
      `amount: expected at most ${Number.MAX_SAFE_INTEGER} minor units, got ${quote(trimmed)}`,
    );
  }
  return ok(Number(minorUnits));
}

function checkOptions(options: AmountOptions): TransformResult<never> | undefined {
  const group = options.groupSeparator ?? '';
  // The options come from a parsed mapping file, so the unions are checked at run time too.
  if (!DECIMAL_SEPARATORS.includes(options.decimalSeparator)) {
    return fail(
      'options_invalid',
      `amount.decimalSeparator: expected "." or ",", got ${quote(options.decimalSeparator)}`,
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
  const group = options.groupSeparator ?? '';
  const grouping = group === '' ? 'no digit grouping' : `${quote(group)} grouping digits by three`;
  return fail(
    'amount_format',
    `amount: expected digits with ${quote(options.decimalSeparator)} as decimal separator and ${grouping}, got ${quote(trimmed)}`,
  );
}
