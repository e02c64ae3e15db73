import { fail, ok, quote, type TransformResult } from './result.js';

/**
 * A card number as an export writes it, whole or masked, in groups or not: 13 to 19 digits or `*`
 * (the import masks every card number before mapping, docs/import.md "Card numbers", so a mapping
 * mostly sees `497010******0012`), groups separated by one space or dash, ending in four digits.
 */
const cardNumberShape = /^[\d*]+(?:[ -][\d*]+)*$/;

/** `last4: true`: the last four digits of a card number in the cell, whole or masked, the only part of it sent. */
export function lastFour(value: string): TransformResult<string> {
  const compact = cardNumberShape.test(value) ? value.replace(/[ -]/g, '') : '';
  if (compact.length >= 13 && compact.length <= 19 && /\d{4}$/.test(compact)) return ok(compact.slice(-4));
  // quote masks a card number: a cell that fails here may still hold one, and messages reach the results file.
  return fail(
    'card_number_invalid',
    `last4: expected a card number (13 to 19 digits, whole or masked), got ${quote(value)}`,
  );
}
