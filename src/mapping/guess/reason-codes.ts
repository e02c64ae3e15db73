import {
  issuerAbbreviations,
  networkCodes,
  wholeLabelCodes,
  type DisputeReason,
  type NetworkCode,
} from './vocabulary/index.js';

/** What a reason label's code says, if it holds one. */
export type CodeReading =
  | { readonly kind: 'code'; readonly code: string; readonly entry: NetworkCode; readonly rest: string }
  | { readonly kind: 'abbreviation'; readonly code: string; readonly reason: DisputeReason; readonly meaning: string }
  | { readonly kind: 'several'; readonly codes: readonly string[] };

/**
 * The network reason code in a label ("10.4", "Visa 13.1 - not received", "4837", "C08"), or
 * the issuer abbreviation a whole label is ("DUP"), with the label's other words for the word
 * matcher to confirm. Two different codes in one label decide nothing.
 */
export function readCode(label: string): CodeReading | undefined {
  const whole = label.trim().toUpperCase();
  const wholeEntry = networkCodes[whole] ?? wholeLabelCodes[whole];
  if (wholeEntry !== undefined) return { kind: 'code', code: whole, entry: wholeEntry, rest: '' };
  const abbreviation = issuerAbbreviations[whole];
  if (abbreviation !== undefined) return { kind: 'abbreviation', code: whole, ...abbreviation };
  const tokens = whole.split(/[^A-Z0-9.]+/).map((token) => token.replace(/^\.+|\.+$/g, ''));
  const codes = [...new Set(tokens.filter((token) => networkCodes[token] !== undefined))];
  const code = codes[0];
  if (codes.length > 1) return { kind: 'several', codes };
  if (code === undefined) return undefined;
  const entry = networkCodes[code] as NetworkCode;
  // The label without its code (and the network's name), for the words to confirm the code.
  const rest = label
    .replace(new RegExp(`(^|[^0-9A-Za-z.])${code.replace(/\./g, '\\.')}(?![0-9A-Za-z]|\\.[0-9])`, 'i'), '$1')
    .replace(/\b(visa|mastercard|master card|mc|amex|american express|discover)\b/gi, '')
    .trim();
  return { kind: 'code', code, entry, rest };
}
