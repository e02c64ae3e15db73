import { findCardNumbers } from './find.js';

/**
 * A card number as PCI DSS allows it shown: the first six and last four digits, the rest `*`
 * (`497010******0012`).
 */
export function maskedForm(digits: string): string {
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}

/** The text with every card number in it masked in place; the text itself when it holds none. */
export function maskCardNumbers(text: string): string {
  const found = findCardNumbers(text);
  if (found.length === 0) return text;
  let masked = '';
  let from = 0;
  for (const number of found) {
    masked += text.slice(from, number.start) + maskedForm(number.digits);
    from = number.end;
  }
  return masked + text.slice(from);
}
