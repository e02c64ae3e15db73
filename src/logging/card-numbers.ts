import { findCardNumbers } from '../card-numbers/find.js';
import { maskCardNumbers } from '../card-numbers/mask.js';

/** A JSON string literal, or a number: the tokens of a line that can hold a card number. */
const jsonTokens = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * A pino JSON line with every card number in it masked (first six, last four: docs/import.md
 * "Card numbers"), in the message, in any string field however deep, in an error's stack, and a
 * card number logged as a number becomes its masked form as a string. The line stays valid JSON.
 *
 * Cheap on the lines that hold none (nearly all): JSON writes a string's digits, spaces and dashes
 * as they are, bounded by the same characters as in the string, so the detector run once over the
 * whole line finds every card number its strings hold. Only a `\u` escape (a control character)
 * can glue its hex digits to the digits after it; a line with one is looked at string by string.
 */
export function maskCardNumbersInJsonLine(line: string): string {
  if (!line.includes('\\u') && findCardNumbers(line).length === 0) return line;
  return line.replace(jsonTokens, maskedToken);
}

function maskedToken(token: string): string {
  if (!token.startsWith('"')) {
    const masked = maskCardNumbers(token);
    return masked === token ? token : JSON.stringify(masked);
  }
  const text = JSON.parse(token) as string;
  const masked = maskCardNumbers(text);
  return masked === text ? token : JSON.stringify(masked);
}
