import { describe, expect, it } from 'vitest';
import { classifyAmount } from '../../../src/mapping/guess/classify-amount.js';
import { classifyDate } from '../../../src/mapping/guess/classify-date.js';
import {
  booleanEnum,
  booleanSpelling,
  enumFor,
  expirySeparator,
  isNetworkColumn,
} from '../../../src/mapping/guess/classify-scalars.js';
import { toDateTime, toMinorUnits } from '../../../src/mapping/transforms/index.js';

/** The per-column classifiers of `mapping guess` on plain values. */

const cells = (texts: string[], currency?: string) => texts.map((text) => ({ text, currency }));

describe('classifyAmount: decimal and grouping separators', () => {
  it.each([
    { values: ['1.234,56', '12,50', '7,00'], currency: 'EUR', decimal: ',', group: '.' },
    { values: ['1,234.56', '12.50', '7.00'], currency: 'USD', decimal: '.', group: ',' },
    { values: ["1'234.56", '3.50'], currency: 'CHF', decimal: '.', group: "'" },
    { values: ['1 234,56', '3,50'], currency: 'EUR', decimal: ',', group: ' ' },
    // No currency known: a decimal comma followed by two digits cannot be grouping.
    { values: ['12,5', '1.234,5'], currency: undefined, decimal: ',', group: '.' },
    // 1,234 in USD (2 decimals) or JPY (none) can only be grouping.
    { values: ['1,234', '12,000'], currency: 'USD', decimal: '.', group: ',' },
    { values: ['38,500', '1,200'], currency: 'JPY', decimal: '.', group: ',' },
    // KWD has 3 decimals: 12.5 decides the decimal point, so 1.234 is 1234 fils.
    { values: ['1.234', '12.5'], currency: 'KWD', decimal: '.', group: ',' },
    { values: ['1,234.567', '0.250'], currency: 'KWD', decimal: '.', group: ',' },
  ])('$values in $currency: decimal "$decimal", grouping "$group"', ({ values, currency, decimal, group }) => {
    const guess = classifyAmount(cells(values, currency));
    expect(guess).toMatchObject({ kind: 'amount', reading: { decimal, group }, confidence: 'high' });
    // The guess is one the amount transform reads every value with.
    for (const text of values)
      expect(
        toMinorUnits(text, {
          currency: currency ?? 'KWD',
          decimalSeparator: decimal as ',' | '.',
          groupSeparator: group as ',',
        }),
      ).toMatchObject({ ok: true });
  });

  it.each([
    { values: ['1,234', '5,678'], currency: 'KWD' },
    { values: ['1.234', '12.345'], currency: 'KWD' },
    { values: ['1,234'], currency: undefined },
  ])('$values in $currency: ambiguous, flagged with both readings', ({ values, currency }) => {
    const guess = classifyAmount(cells(values, currency));
    expect(guess?.kind).toBe('ambiguous');
    if (guess?.kind !== 'ambiguous') return;
    expect(guess.readings.map((reading) => reading.decimal).sort()).toEqual([',', '.']);
    expect(guess.evidence).toContain(JSON.stringify(values[0]));
  });

  it('whole numbers: amounts in JPY with confidence, in EUR with a note about minor units', () => {
    expect(classifyAmount(cells(['38500', '1200'], 'JPY'))).toMatchObject({
      kind: 'amount',
      confidence: 'high',
      wholeNumbersOnly: true,
    });
    const euros = classifyAmount(cells(['1999', '500'], 'EUR'));
    expect(euros).toMatchObject({ kind: 'amount', confidence: 'medium', wholeNumbersOnly: true });
    expect(euros?.kind === 'amount' && euros.evidence).toContain('type: integer');
  });

  it('whole numbers take the preferred decimal separator (a ";" file\'s decimal comma)', () => {
    expect(classifyAmount(cells(['1999', '500'], 'EUR'), ',')).toMatchObject({ reading: { decimal: ',', group: '.' } });
    expect(classifyAmount(cells(['1999', '500'], 'EUR'), '.')).toMatchObject({ reading: { decimal: '.', group: ',' } });
  });

  it('a few bad cells lower the confidence and are named; mostly text is no amount', () => {
    const guess = classifyAmount(
      cells(['12,50', '3,99', '7,00', '1.234,00', '5,55', '6,66', '8,88', '9,99', '10,10', 'n/a'], 'EUR'),
    );
    expect(guess).toMatchObject({ kind: 'amount', confidence: 'medium', reading: { decimal: ',' } });
    expect(guess?.evidence).toContain('1 of 10 cells read no way, e.g. "n/a"');
    expect(classifyAmount(cells(['abc', 'def', '12.00'], 'EUR'))).toBeUndefined();
    expect(classifyAmount([])).toBeUndefined();
  });
});

describe('classifyDate: formats', () => {
  it.each([
    { values: ['15.03.2026', '01.02.2026'], format: 'dd.MM.yyyy' },
    { values: ['03/15/2026', '01/02/2026'], format: 'MM/dd/yyyy' },
    { values: ['15/03/2026', '01/02/2026'], format: 'dd/MM/yyyy' },
    { values: ['2026-03-15', '2026-01-02'], format: 'yyyy-MM-dd' },
    { values: ['5.3.2026', '15.12.2026'], format: 'd.M.yyyy' },
    { values: ['15.03.26', '01.02.26'], format: 'dd.MM.yy' },
    { values: ['2026-03-15T10:20:30Z'], format: "yyyy-MM-dd'T'HH:mm:ss'Z'" },
    { values: ['2026-03-15T10:20:30.123+02:00'], format: "yyyy-MM-dd'T'HH:mm:ss.SSSZZ" },
    { values: ['2026-03-15 10:20:30+0200'], format: 'yyyy-MM-dd HH:mm:ssZZZ' },
    { values: ['15.03.2026 09:30'], format: 'dd.MM.yyyy HH:mm' },
  ])('$values: $format', ({ values, format }) => {
    const guess = classifyDate(values);
    expect(guess).toMatchObject({ kind: 'date', format, confidence: 'high' });
    for (const value of values) expect(toDateTime(value, { format, timeZone: 'UTC' }).ok).toBe(true);
  });

  it("a time without an offset needs the export's time zone; with Z or an offset it does not", () => {
    expect(classifyDate(['2026-03-15 10:20'])).toMatchObject({ hasTime: true, needsTimeZone: true });
    expect(classifyDate(['2026-03-15T10:20:30Z'])).toMatchObject({ hasTime: true, needsTimeZone: false });
    expect(classifyDate(['2026-03-15'])).toMatchObject({ hasTime: false, needsTimeZone: false });
  });

  it('says which value decided day-first or month-first', () => {
    expect(classifyDate(['01.02.2026', '13.02.2026'])).toMatchObject({
      format: 'dd.MM.yyyy',
      evidence: expect.stringContaining('"13.02.2026" has a day above 12') as unknown,
    });
    expect(classifyDate(['02/01/2026', '02/13/2026'])).toMatchObject({
      format: 'MM/dd/yyyy',
      evidence: expect.stringContaining('"02/13/2026"') as unknown,
    });
  });

  it.each([
    { values: ['01.02.2026', '03.04.2026', '12.11.2026'], formats: ['dd.MM.yyyy', 'MM.dd.yyyy'] },
    { values: ['01/02/2026', '11/12/2026'], formats: ['dd/MM/yyyy', 'MM/dd/yyyy'] },
  ])('no day above 12 in $values: ambiguous, both formats offered', ({ values, formats }) => {
    const guess = classifyDate(values);
    expect(guess?.kind).toBe('ambiguous');
    expect(guess?.kind === 'ambiguous' && [...guess.formats].sort()).toEqual([...formats].sort());
  });

  it('not dates: text, numbers, expiry dates', () => {
    expect(classifyDate(['hello', 'world'])).toBeUndefined();
    expect(classifyDate(['1234', '5678'])).toBeUndefined();
    expect(classifyDate(['09/28', '12/30'])).toBeUndefined();
  });
});

describe('booleans, expiry, networks, code columns', () => {
  it.each([
    { values: ['yes', 'no'], name: 'yes/no', native: true },
    { values: ['Y', 'N', 'N'], name: 'yes/no', native: true },
    { values: ['TRUE', 'false'], name: 'true/false', native: true },
    { values: ['1', '0'], name: '1/0', native: true },
    { values: ['J', 'N'], name: 'J/N (ja/nein)', native: false },
    { values: ['ja', 'nein'], name: 'J/N (ja/nein)', native: false },
    { values: ['O', 'N'], name: 'O/N (oui/non)', native: false },
    { values: ['oui', 'non'], name: 'O/N (oui/non)', native: false },
    { values: ['S', 'N'], name: 'S/N (sí/no)', native: false },
    { values: ['sí', 'no'], name: 'S/N (sí/no)', native: false },
  ])('$values: $name', ({ values, name, native }) => {
    expect(booleanSpelling(values)).toMatchObject({ name, native });
  });

  it.each([[['1']], [['maybe', 'no']], [['x', 'y', 'z']], [[]]])('%j: not a boolean column', (values) => {
    expect(booleanSpelling(values)).toBeUndefined();
  });

  it("a non-native spelling gets an enum to the words type boolean reads, in the column's case", () => {
    const spelling = booleanSpelling(['J', 'N']);
    expect(spelling && booleanEnum(spelling, ['J', 'N'])).toEqual({ J: 'yes', JA: 'yes', N: 'no', NEIN: 'no' });
    const french = booleanSpelling(['oui', 'non']);
    expect(french && booleanEnum(french, ['oui', 'non'])).toEqual({ o: 'yes', oui: 'yes', n: 'no', non: 'no' });
  });

  it('expiry MM/YY and MM/YYYY', () => {
    expect(expirySeparator(['09/28', '12/2030', '1/29'])).toBe('/');
    expect(expirySeparator(['09-28', '12-30'])).toBe('-');
    expect(expirySeparator(['13/28', '14/30'])).toBeUndefined();
    expect(expirySeparator(['2026-03-15'])).toBeUndefined();
  });

  it('card networks: known spellings, at least one spelled out', () => {
    expect(isNetworkColumn(['VISA', 'MC', 'Amex'])).toBe(true);
    expect(isNetworkColumn(['Mastercard', 'American Express'])).toBe(true);
    expect(isNetworkColumn(['MC', 'VI'])).toBe(false);
    expect(isNetworkColumn(['VISA', 'Diners'])).toBe(false);
  });

  it('enums: known spellings mapped, the rest TODO, one entry per spelling ignoring case', () => {
    expect(enumFor(['VISA', 'MC', 'Visa', 'JCB', 'MC'], 'network')).toEqual({
      table: { MC: 'mastercard', VISA: 'visa', JCB: 'TODO' },
      todo: ['JCB'],
      caseOnly: false,
      checks: {},
      undecided: {},
    });
    expect(enumFor(['visa', 'VISA', 'amex'], 'network')).toMatchObject({ todo: [], caseOnly: true });
    // Reasons: the API's own names as they are; the vocabulary's readings each with why.
    const reasons = enumFor(['FR', 'R7', 'fraud', 'Counterfeit'], 'reason');
    expect(reasons).toMatchObject({
      table: { Counterfeit: 'TODO', FR: 'fraud', fraud: 'fraud', R7: 'TODO' },
      todo: ['Counterfeit', 'R7'],
      caseOnly: false,
    });
    expect(Object.keys(reasons.checks)).toEqual(['FR']);
    expect(reasons.checks.FR).toContain('abbreviation');
    expect(Object.keys(reasons.undecided)).toEqual(['Counterfeit']);
    expect(reasons.undecided.Counterfeit).toMatch(/product_counterfeit .* or fraud/);
    expect(enumFor(['Kredit', 'Débit', 'Prepaid'], 'card_type')).toMatchObject({
      table: { Kredit: 'credit', Débit: 'debit', Prepaid: 'prepaid' },
      todo: [],
    });
  });
});
