import currencyCodes from 'currency-codes';
import { fail, ok, quote, type TransformResult } from './result.js';

/*
 * Exponents come from `currency-codes`, which ships ISO 4217 List One itself (publish date in
 * `currencyCodes.publishDate`) rather than CLDR. Intl's `maximumFractionDigits` is CLDR's
 * display precision, which differs from ISO 4217 for 18 currencies on Node 20's ICU (CLDR 0 vs
 * ISO 2 for COP, HUF, IDR, PKR and others; 0 vs 3 for IQD), and amounts on the wire are ISO
 * minor units (docs/interface.md). Reading IDR "1500,00" with CLDR digits would be off
 * by a factor of 100 without any error.
 */

/**
 * ISO 4217 lists these with minor unit "N.A." (metals, bond units, SDR, testing, "no currency");
 * `currency-codes` turns "N.A." into 0, which would silently accept them as whole units.
 */
const NO_MINOR_UNIT = new Set([
  'XAG',
  'XAU',
  'XBA',
  'XBB',
  'XBC',
  'XBD',
  'XDR',
  'XPD',
  'XPT',
  'XSU',
  'XTS',
  'XUA',
  'XXX',
]);

/** The ISO 4217 minor-unit exponent of an upper-case alphabetic code: USD 2, JPY 0, KWD 3. */
export function minorUnitExponent(currency: string): TransformResult<number> {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    exponent = lookUpExponent(currency);
    if (exponents.size < 1000) exponents.set(currency, exponent);
  }
  return exponent;
}

/**
 * currency-codes finds a code by a linear search of its list, and every amount cell asks: an
 * export uses a few currencies, so the answers are kept (bounded, for cells full of junk).
 */
const exponents = new Map<string, TransformResult<number>>();

function lookUpExponent(currency: string): TransformResult<number> {
  // Upper case only: a mapping that reads lower-case codes says so with a case transform.
  if (!/^[A-Z]{3}$/.test(currency)) {
    return fail('currency_unknown', `currency: expected an ISO 4217 code like "USD", got ${quote(currency)}`);
  }
  if (NO_MINOR_UNIT.has(currency)) {
    return fail(
      'currency_no_minor_unit',
      `currency: expected a currency with a minor unit, got ${quote(currency)} (ISO 4217 minor unit N.A.)`,
    );
  }
  const record = currencyCodes.code(currency);
  if (record === undefined) {
    return fail('currency_unknown', `currency: expected an ISO 4217 code like "USD", got ${quote(currency)}`);
  }
  return ok(record.digits);
}
