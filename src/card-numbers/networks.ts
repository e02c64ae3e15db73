/**
 * The card networks' issuer ranges (the leading digits of a card number) and the lengths each
 * issues, from the networks' published ranges. A run of digits is only taken for a card number
 * when it falls in one of them: ARNs, phone numbers, amounts and most ids start or run otherwise.
 * CB (Cartes Bancaires) cards carry Visa or Mastercard numbers, so they are covered by those.
 */
export interface IssuerRange {
  readonly network: string;
  /** The first digits, as an inclusive range of numbers of the same width (`['2221', '2720']`). */
  readonly from: string;
  readonly to: string;
  readonly lengths: readonly number[];
}

const from16to19 = [16, 17, 18, 19];

export const issuerRanges: readonly IssuerRange[] = [
  { network: 'visa', from: '4', to: '4', lengths: [13, 16, 19] },
  { network: 'mastercard', from: '51', to: '55', lengths: [16] },
  { network: 'mastercard', from: '2221', to: '2720', lengths: [16] },
  { network: 'amex', from: '34', to: '34', lengths: [15] },
  { network: 'amex', from: '37', to: '37', lengths: [15] },
  { network: 'discover', from: '6011', to: '6011', lengths: from16to19 },
  { network: 'discover', from: '644', to: '649', lengths: from16to19 },
  { network: 'discover', from: '65', to: '65', lengths: from16to19 },
  { network: 'jcb', from: '3528', to: '3589', lengths: from16to19 },
  { network: 'unionpay', from: '62', to: '62', lengths: from16to19 },
  { network: 'diners', from: '300', to: '305', lengths: [14, 16, 17, 18, 19] },
  { network: 'diners', from: '36', to: '36', lengths: [14, 16, 17, 18, 19] },
  { network: 'diners', from: '38', to: '39', lengths: [16, 17, 18, 19] },
  ...['5018', '5020', '5038', '5893', '6304', '6759', '6761', '6762', '6763'].map((prefix) => ({
    network: 'maestro',
    from: prefix,
    to: prefix,
    lengths: [13, 14, 15, 16, 17, 18, 19],
  })),
];

/** The network whose range and lengths a run of digits falls in, if any. */
export function networkOf(digits: string): string | undefined {
  for (const range of issuerRanges) {
    const lead = Number(digits.slice(0, range.from.length));
    if (lead >= Number(range.from) && lead <= Number(range.to) && range.lengths.includes(digits.length))
      return range.network;
  }
  return undefined;
}

/** The Luhn check every card number passes (ISO/IEC 7812-1): a typing slip fails it. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
