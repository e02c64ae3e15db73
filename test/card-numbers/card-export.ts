import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { passesLuhn } from '../../src/card-numbers/networks.js';

/**
 * An issuer's export (the generic sample, a cardholder writing in French) with card numbers of
 * every network, in every shape, on every row: a column of its own (not mapped), a free-text
 * column the mapping does not read, and the cardholder's statement, which it maps to the claim's
 * explanation.
 */

export const root = fileURLToPath(new URL('../../', import.meta.url));

/** Each network's leading digits and a length it issues (docs/import.md "Card numbers"). */
export const networks: readonly (readonly [string, string, number])[] = [
  ['visa', '4970', 16],
  ['mastercard', '5105', 16],
  ['mastercard 2-series', '2221', 16],
  ['amex', '3782', 15],
  ['discover', '6011', 16],
  ['jcb', '3530', 16],
  ['unionpay', '6212', 19],
  ['diners', '3056', 14],
  ['maestro', '6759', 16],
];

/** A Luhn-valid number of `length` digits starting `prefix`; `seed` makes each one of a kind. */
export function cardNumber(prefix: string, length: number, seed: number): string {
  // The seed last, beside the check digit, so that each number's masked form is its own too.
  const body = `${prefix}73591628407359`.slice(0, length - 5) + String(seed % 10_000).padStart(4, '0');
  for (let check = 0; check <= 9; check++) if (passesLuhn(`${body}${check}`)) return `${body}${check}`;
  throw new Error('unreachable');
}

/** The shapes a person types a card number in. */
export const shapes: readonly ((digits: string) => string)[] = [
  (digits) => digits,
  (digits) => digits.replace(/(\d{4})(?=\d)/g, '$1 '),
  (digits) => digits.replace(/(\d{4})(?=\d)/g, '$1-'),
  (digits) => `ma carte ${digits.replace(/(\d{4})(?=\d)/g, '$1 ')} a été débitée deux fois`,
];

/** Numbers handed out one after another, each remembered for the checks. */
export class CardNumbers {
  readonly all: string[] = [];

  /** `seed` the first number's: apart from another list's, so that the two never share a number. */
  constructor(private seed = 0) {}

  next(network: number): string {
    const [, prefix, length] = networks[network % networks.length] ?? ['visa', '4970', 16];
    const digits = cardNumber(prefix, length, this.seed++);
    this.all.push(digits);
    return digits;
  }

  /** Every network once, each in one of the shapes, as a sentence. */
  sentence(row: number): string {
    return networks
      .map((_, network) => (shapes[(row + network) % shapes.length] ?? String)(this.next(network)))
      .join('; ');
  }
}

export interface CardExport {
  readonly input: string;
  readonly numbers: CardNumbers;
  /** The claim key of each row, in order. */
  readonly keys: string[];
}

/** The first row's disputed amount: not an amount, so that its claim is held back (invalid). */
export const badAmount = '84x.99';

/** The export with card numbers, written to `folder/export.csv`. */
export async function writeCardExport(folder: string): Promise<CardExport> {
  const rows: string[][] = parse(await readFile(join(root, 'samples/generic-export.csv'), 'utf8'));
  const [header = [], ...body] = rows;
  const numbers = new CardNumbers();
  const statement = header.indexOf('cardholder_statement');
  const key = header.indexOf('dispute_ref');
  const amount = header.indexOf('disputed_amount');
  // The statement is the claim's: its rows must agree, so one sentence per claim.
  const statements = new Map<string, string>();
  const lines = body.map((row, index) => {
    const claim = row[key] ?? '';
    if (!statements.has(claim)) statements.set(claim, `${row[statement] ?? ''} ${numbers.sentence(index)}.`);
    const cells = [...row];
    cells[statement] = statements.get(claim) ?? '';
    // The first claim held back by a typing slip, for the review and the feed-back to fix.
    if (index === 0) cells[amount] = badAmount;
    const own = (shapes[index % 3] ?? String)(numbers.next(index));
    return [...cells, own, `Appel du client : ${numbers.sentence(index + 1)}.`];
  });
  const input = join(folder, 'export.csv');
  await writeFile(input, stringify([[...header, 'card_number', 'agent_notes'], ...lines]));
  return { input, numbers, keys: body.map((row) => row[key] ?? '') };
}
