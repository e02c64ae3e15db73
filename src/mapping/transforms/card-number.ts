import { maskCharacters, readCardNumber } from '../../card-numbers/written-forms.js';
import { fail, ok, quote, type TransformResult } from './result.js';

/** The mask characters as the message lists them: "X", "x", "*", "#" or "•". */
const masks = `${maskCharacters
  .slice(0, -1)
  .map((mask) => JSON.stringify(mask))
  .join(', ')} or ${JSON.stringify(maskCharacters.at(-1))}`;

/**
 * `last4: true`: the last four digits of a card number in the cell, the only part of it sent. Read
 * in every form an export writes (card-numbers/written-forms.ts, docs/mappings.md "Card numbers
 * masked by the bank"): whole or masked, in groups or not, or its last four alone or after a mask.
 * The import masks every whole card number before mapping (docs/import.md, "Card numbers"), so a
 * mapping mostly sees `497010******0012` or the bank's own `546604XXXXXX4795`.
 */
export function lastFour(value: string): TransformResult<string> {
  const card = readCardNumber(value);
  if (card !== undefined) return ok(card.lastFour);
  // quote masks a card number: a cell that fails here may still hold one, and messages reach the results file.
  return fail(
    'card_number_invalid',
    `last4: expected a card number, whole or masked (13 to 19 digits, ${masks} in place of hidden ones, e.g. ` +
      `"546604XXXXXX4795"), or its last four digits, alone or after a mask ("1234", "XXX1234", "**** 1234"), ` +
      `got ${quote(value)}`,
  );
}
