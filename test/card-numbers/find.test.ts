import { describe, expect, it } from 'vitest';
import { findCardNumbers } from '../../src/card-numbers/find.js';
import { maskCardNumbers, maskedForm } from '../../src/card-numbers/mask.js';
import { networkOf, passesLuhn } from '../../src/card-numbers/networks.js';
import { isMaskedCardNumber, networkOfFirstDigits, readCardNumber } from '../../src/card-numbers/written-forms.js';

/** `prefix` padded with varied digits to `length - 1` digits, then the Luhn check digit. */
function cardNumber(prefix: string, length: number): string {
  const body = `${prefix}73591628407359162840`.slice(0, length - 1);
  for (let check = 0; check <= 9; check++) if (passesLuhn(`${body}${check}`)) return `${body}${check}`;
  throw new Error('unreachable: one check digit always passes');
}

/** The same digits with the last one changed: Luhn fails. */
function typo(digits: string): string {
  const last = Number(digits.slice(-1));
  return `${digits.slice(0, -1)}${(last + 1) % 10}`;
}

const networks: [string, string, number][] = [
  ['visa', '4970101', 16],
  ['visa', '4111', 13],
  ['visa', '4000', 19],
  ['mastercard', '5105', 16],
  ['mastercard', '2221', 16],
  ['mastercard', '2720', 16],
  ['amex', '3782', 15],
  ['amex', '3400', 15],
  ['discover', '6011', 16],
  ['discover', '6445', 19],
  ['discover', '6500', 16],
  ['jcb', '3530', 16],
  ['unionpay', '6212', 19],
  ['diners', '3056', 14],
  ['diners', '3600', 14],
  ['maestro', '6759', 18],
  ['maestro', '5018', 13],
];

describe('card numbers', () => {
  it.each(networks)('%s %s… of %i digits: found, in every shape', (network, prefix, length) => {
    const digits = cardNumber(prefix, length);
    expect(networkOf(digits)).toBe(network);
    const grouped = digits.replace(/(\d{4})(?=\d)/g, '$1 ');
    const dashed = digits.replace(/(\d{4})(?=\d)/g, '$1-');
    for (const written of [digits, grouped, dashed, `ma carte ${grouped} a été débitée deux fois`]) {
      const found = findCardNumbers(written);
      expect(
        found.map((number) => number.digits),
        written,
      ).toEqual([digits]);
      expect(maskCardNumbers(written)).toContain(maskedForm(digits));
      expect(maskCardNumbers(written).replace(/[ -]/g, '')).not.toContain(digits.slice(6, -4));
    }
  });

  it('a Luhn failure is not a card number', () => {
    for (const [, prefix, length] of networks) expect(findCardNumbers(typo(cardNumber(prefix, length)))).toEqual([]);
  });

  it('outside every issuer range, or of another length, it is not a card number', () => {
    expect(findCardNumbers(cardNumber('1234', 16))).toEqual([]);
    expect(findCardNumbers(cardNumber('9', 16))).toEqual([]);
    expect(findCardNumbers(cardNumber('51', 15))).toEqual([]); // a Mastercard number has 16 digits, never 15
    expect(findCardNumbers(cardNumber('37', 16))).toEqual([]); // American Express, 15 only
  });

  it('an ARN, a phone number, an amount, a date or an id is not a card number', () => {
    // A Visa ARN is 23 digits starting with 2 or 7; its Luhn-valid 16-digit middles are left whole.
    const arn = cardNumber('7497010', 23);
    expect(findCardNumbers(arn)).toEqual([]);
    expect(findCardNumbers(`ARN ${arn} du 2026-11-20`)).toEqual([]);
    expect(findCardNumbers(`${cardNumber('2', 12)}${cardNumber('4970', 16)}`)).toEqual([]); // inside a longer run
    for (const phone of ['+33 6 12 34 56 78', '0033 6 12 34 56 78', '+1 (415) 555-0134', '+44 20 7946 0958'])
      expect(findCardNumbers(phone), phone).toEqual([]);
    for (const amount of ['1 234 567,89', '4 500 000 000,00 EUR', '-12.50', '1234567890.12'])
      expect(findCardNumbers(amount), amount).toEqual([]);
    // Bytes shown in hex: 47 49 46 38 39 61 01 00 is Luhn-valid and starts with 4, but written in pairs.
    expect(findCardNumbers('binary bytes starting 47 49 46 38 39 61 01 00')).toEqual([]);
    for (const date of ['2026-11-20', '20/11/2026 14:32:05', '2026-11-20T12:00:00Z'])
      expect(findCardNumbers(date), date).toEqual([]);
    for (const id of [
      'clm_376fb1844a33c497924d06b0-1',
      'PR-IT-7005',
      'TX-000123456789',
      'case_0123456789abcdef01234567',
      // A hex id whose 13 digits in a row pass as a Visa number: glued to letters, part of the id.
      'event_06888b25bd4025633778900b',
      `ref${cardNumber('4970101', 16)}`,
      `${cardNumber('4970101', 16)}_x`,
    ])
      expect(findCardNumbers(id), id).toEqual([]);
  });

  it('a number glued to a word is not taken, the card number after it in the same run is', () => {
    const digits = cardNumber('4970101', 16);
    const grouped = digits.replace(/(\d{4})(?=\d)/g, '$1 ');
    expect(findCardNumbers(`ref12 ${grouped} x`).map((found) => found.digits)).toEqual([digits]);
    expect(findCardNumbers(`PAN:${digits}.`).map((found) => found.digits)).toEqual([digits]);
    expect(findCardNumbers(`CLM-${digits}`).map((found) => found.digits)).toEqual([digits]);
    // After a line break or tab written as an escape (JSON, a quoted message), it is a number of its own.
    for (const before of ['\n', '\r', '\t'])
      expect(findCardNumbers(JSON.stringify(`notes${before}${digits}`)).map((found) => found.digits)).toEqual([digits]);
  });

  it('beside other numbers in one run of groups, the card number is still found', () => {
    const digits = cardNumber('4970101', 16);
    expect(
      findCardNumbers(`le 12 ${digits.replace(/(\d{4})(?=\d)/g, '$1 ')} 2026`).map((found) => found.digits),
    ).toEqual([digits]);
  });

  it('two card numbers in one text: both masked, the rest as it was', () => {
    const visa = cardNumber('4970101', 16);
    const amex = cardNumber('3782', 15);
    expect(maskCardNumbers(`first ${visa}, then ${amex}.`)).toBe(
      `first ${maskedForm(visa)}, then ${maskedForm(amex)}.`,
    );
    expect(maskedForm('4970101000000012')).toBe('497010******0012');
  });

  it('a text with no card number is returned as it is', () => {
    const text = 'Débit en double le 12/11, montant 45,90 EUR, réf. 74970101234567890123456';
    expect(maskCardNumbers(text)).toBe(text);
  });
});

/** A card number as a bank masks it in its own reports: first six, `mask` for the hidden digits, last four. */
const bankMasked = (digits: string, mask: string) =>
  `${digits.slice(0, 6)}${mask.repeat(digits.length - 10)}${digits.slice(-4)}`;

describe('card numbers masked by the bank', () => {
  const mastercard = cardNumber('546604', 16);
  const amex = cardNumber('371511', 15);
  const visa19 = cardNumber('4000', 19);
  const grouped = (text: string) => text.replace(/(.{4})(?=.)/gu, '$1 ');
  const dashed = (text: string) => text.replace(/(.{4})(?=.)/gu, '$1-');
  const forms = [mastercard, amex, visa19].flatMap((digits) =>
    ['X', 'x', '*', '#', '•'].flatMap((mask) => {
      const masked = bankMasked(digits, mask);
      const lastFour = digits.slice(-4);
      return [
        masked,
        grouped(masked),
        dashed(masked),
        `${mask.repeat(3)}${lastFour}`,
        `${mask.repeat(4)} ${lastFour}`,
        grouped(`${mask.repeat(digits.length - 4)}${lastFour}`),
        dashed(`${mask.repeat(12)}${lastFour}`),
      ];
    }),
  );

  it.each(forms)('%s: no full card number, so nothing to mask', (written) => {
    expect(findCardNumbers(written)).toEqual([]);
    expect(maskCardNumbers(written)).toBe(written);
    const sentence = `carte ${written} débitée deux fois le 12/11, 45,90 EUR`;
    expect(findCardNumbers(sentence)).toEqual([]);
    expect(maskCardNumbers(sentence)).toBe(sentence);
    // And read as a masked card number, the last four its only digits after the mask.
    expect(isMaskedCardNumber(written)).toBe(true);
    expect(readCardNumber(written)?.lastFour).toBe(written.replace(/[ -]/g, '').slice(-4));
  });

  it('beside a full card number in one text, only the full one is masked', () => {
    const full = cardNumber('4970101', 16);
    const text = `old card ${bankMasked(mastercard, 'X')}, new card ${full}`;
    expect(findCardNumbers(text).map((found) => found.digits)).toEqual([full]);
    expect(maskCardNumbers(text)).toBe(`old card ${bankMasked(mastercard, 'X')}, new card ${maskedForm(full)}`);
  });

  it("a masked number's first digits and length tell its network; the last four alone tell none", () => {
    const network = (written: string) => {
      const card = readCardNumber(written);
      return card === undefined ? 'unreadable' : networkOfFirstDigits(card);
    };
    expect(network(bankMasked(mastercard, 'X'))).toBe('mastercard');
    expect(network(bankMasked(amex, 'X'))).toBe('amex');
    expect(network(grouped(bankMasked(visa19, '*')))).toBe('visa');
    expect(network(maskedForm(cardNumber('6011', 16)))).toBe('discover');
    // Amex numbers are 15 digits: a 16-character mask over 37… is no network's.
    expect(network(`371511${'X'.repeat(6)}2097`)).toBeUndefined();
    // Fewer than four first digits cannot tell 51–55 from 50… (Maestro) or 2221–2720 from 2220.
    expect(network(`546${'X'.repeat(9)}4795`)).toBeUndefined();
    expect(network('XXXX XXXX XXXX 4795')).toBeUndefined();
    expect(network('XXX4795')).toBeUndefined();
    expect(network('4795')).toBeUndefined();
  });

  it('is a masked card number in no other shape: whole, the last four alone, ids and codes are not', () => {
    for (const text of [mastercard, '4795', '#4795', 'x4795', 'XXX47951', 'TX-000123456789', 'FR-2026-0001', 'XX'])
      expect(isMaskedCardNumber(text), text).toBe(false);
  });
});
