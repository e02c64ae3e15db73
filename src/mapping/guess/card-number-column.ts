import { maskCardNumbers } from '../../card-numbers/mask.js';
import { isMaskedCardNumber } from '../../card-numbers/written-forms.js';
import { lastFour } from '../transforms/index.js';
import { mostly } from './classify-scalars.js';
import type { Sample } from './types.js';

/**
 * Card-number columns in a sample. A full card number never leaves the input file (docs/import.md,
 * "Card numbers"): the sample is masked as the import masks it before anything is guessed from it,
 * so no comment, decision or example of the draft can quote one, and a card-number column is only
 * ever mapped to `card.last4` (`last4: true`), never to a key, an id or free text.
 */

/** The sample with every card number in every cell masked, first six and last four (`497010******0012`). */
export function maskedSample(sample: Sample): Sample {
  return {
    columns: sample.columns,
    rows: sample.rows.map((row) => {
      const masked: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [column, cell] of Object.entries(row)) masked[column] = maskCardNumbers(cell);
      return masked;
    }),
  };
}

/**
 * Most values are card numbers as a masked sample holds them: masked by the import
 * (`497010******0012`, whatever their grouping was) or by the bank (`546604XXXXXX4795`, `XXX1234`,
 * `•••• 1234`). A card-number column by its cells alone.
 */
export function holdsCardNumbers(values: readonly string[]): boolean {
  return mostly(values, isMaskedCardNumber);
}

/** Most values are what `last4: true` reads: a column a card-number header names (masked otherwise, `************0012`). */
export function readsAsCardNumbers(values: readonly string[]): boolean {
  return mostly(values, (value) => lastFour(value).ok);
}

/** The draft's note on a card-number column: what it holds, and what of it is sent. */
export function cardNumberNote(column: string, lastFourColumn: string | undefined): string {
  const sent =
    lastFourColumn === undefined
      ? 'only the last four digits are sent (card.last4, last4: true)'
      : `nothing of it is sent (card.last4 reads ${JSON.stringify(lastFourColumn)})`;
  return `${JSON.stringify(column)} holds card numbers (cardholder data): the import masks them before the row is kept or sent; ${sent}`;
}
