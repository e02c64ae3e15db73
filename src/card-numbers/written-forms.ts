import { networkOf } from './networks.js';

/**
 * The ways an export writes a card number in a cell (docs/mappings.md, "Card numbers masked by the
 * bank"): whole, masked by the bank or by the import (first digits, a run of one mask character,
 * the last four: `546604XXXXXX4795`, `371511XXXXX2097`, `497010******0012`), its last four after a
 * mask standing for the rest (`XXX1234`, `************1234`, `•••• 1234`), or the last four alone
 * (`1234`). Groups of digits or mask characters may be separated by one space or dash.
 */

/** What banks write in place of the digits they hide. */
export const maskCharacters = ['X', 'x', '*', '#', '•'] as const;

export type CardNumberForm =
  /** 13 to 19 digits. */
  | 'whole'
  /** 13 to 19 characters: first digits, a mask, the last four. */
  | 'masked'
  /** A shorter cell: a mask of two characters or more standing for the rest, then the last four. */
  | 'last_four_masked'
  /** Four digits alone: the last four, as a column of them writes it. */
  | 'last_four';

export interface WrittenCardNumber {
  readonly form: CardNumberForm;
  /** The digits shown before the mask (all of them for a whole number, none for the last four). */
  readonly firstDigits: string;
  /** The mask character, when there is one. */
  readonly mask: string | undefined;
  /** Digits and mask characters, separators left out: the card number's length when it is whole or masked. */
  readonly length: number;
  readonly lastFour: string;
}

/** Groups of digits or mask characters, one space or dash between two groups. */
const groups = /^[\dXx*#•]+(?:[ -][\dXx*#•]+)*$/u;
/** First digits, one mask character repeated, four digits: one run of mask, as banks write it. */
const maskedShape = /^(\d*)([Xx*#•])\2*(\d{4})$/u;

/** The fewest mask characters before a shorter cell's last four: `#1234` and `x1234` are a number and an extension. */
const shortestMask = 2;
const shortestCard = 13;
const longestCard = 19;

/** How a cell writes a card number, or undefined when it writes none of the forms above. */
export function readCardNumber(cell: string): WrittenCardNumber | undefined {
  if (/^\d{4}$/.test(cell)) return { form: 'last_four', firstDigits: '', mask: undefined, length: 4, lastFour: cell };
  if (!groups.test(cell)) return undefined;
  const compact = cell.replace(/[ -]/g, '');
  // Every mask character is one UTF-16 unit (`•` is U+2022): the length counts the card's digits.
  const length = compact.length;
  if (/^\d+$/.test(compact)) {
    if (length < shortestCard || length > longestCard) return undefined;
    return { form: 'whole', firstDigits: compact, mask: undefined, length, lastFour: compact.slice(-4) };
  }
  const shape = maskedShape.exec(compact);
  if (shape === null) return undefined;
  const [, firstDigits = '', mask = '', lastFour = ''] = shape;
  if (length >= shortestCard && length <= longestCard) return { form: 'masked', firstDigits, mask, length, lastFour };
  if (length < shortestCard && firstDigits === '' && length - 4 >= shortestMask)
    return { form: 'last_four_masked', firstDigits, mask, length, lastFour };
  return undefined;
}

/** Whether the cell holds a card number masked, by the bank or the import: no full number, but one all the same. */
export function isMaskedCardNumber(cell: string): boolean {
  const form = readCardNumber(cell)?.form;
  return form === 'masked' || form === 'last_four_masked';
}

/**
 * The network a card number's first digits and length fall in (networks.ts), when at least four are
 * shown (every issuer range is told by four digits or fewer): `546604XXXXXX4795` is Mastercard.
 */
export function networkOfFirstDigits(card: WrittenCardNumber): string | undefined {
  if ((card.form !== 'masked' && card.form !== 'whole') || card.firstDigits.length < 4) return undefined;
  return networkOf(card.firstDigits.padEnd(card.length, '0'));
}
