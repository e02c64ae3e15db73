import { maskCardNumbers } from '../../card-numbers/mask.js';

/**
 * The value every transform returns. A bad cell is a row failure, and row failures are values,
 * not throws, so a bad cell costs its row and never the run: the pipeline turns `{ ok: false }`
 * into an `invalid` results line with the field, the code and the message.
 */

/** Stable codes: tests, the results CSV and `mapping explain` match on these, never on messages. */
export const TRANSFORM_ERROR_CODES = [
  'options_invalid',
  'required_missing',
  'amount_empty',
  'amount_format',
  'amount_negative',
  // A sign column's cell in neither list, or a cell signed against it (a field's sign_column).
  'amount_sign_unknown',
  'amount_sign_conflict',
  'amount_precision',
  'amount_too_large',
  'currency_unknown',
  'currency_no_minor_unit',
  'date_empty',
  'date_format',
  'date_invalid',
  'date_nonexistent_local_time',
  'time_zone_unknown',
  'integer_invalid',
  'integer_out_of_range',
  'boolean_invalid',
  'year_invalid',
  'card_number_invalid',
  'enum_unmapped',
  'split_part_missing',
  'split_parts_count',
  // What a spreadsheet did to an identifier cell (src/mapping/spreadsheet-damage.ts).
  'spreadsheet_damaged',
  'leading_zeros_dropped',
  'arn_invalid',
] as const;

export type TransformErrorCode = (typeof TRANSFORM_ERROR_CODES)[number];

export interface TransformSuccess<T> {
  readonly ok: true;
  readonly value: T;
}

export interface TransformFailure {
  readonly ok: false;
  readonly code: TransformErrorCode;
  /** Shape: "what: expected …, got …". */
  readonly message: string;
}

export type TransformResult<T> = TransformSuccess<T> | TransformFailure;

export function ok<T>(value: T): TransformSuccess<T> {
  return { ok: true, value };
}

export function fail(code: TransformErrorCode, message: string): TransformFailure {
  return { ok: false, code, message };
}

/**
 * Quotes a cell for a message so that empty strings and stray spaces are visible, with any card
 * number in it masked: a message goes to the results file and the terminal, which must never hold
 * one (docs/import.md, "Card numbers").
 */
export function quote(text: string): string {
  return JSON.stringify(maskCardNumbers(text));
}
