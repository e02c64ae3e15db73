import { z } from 'zod';

/** `claim_id`, `case_id`, `program_id`: at most 126 characters (docs/interface.md). */
export const identifier = z.string().min(1).max(126);

/** ISO 8601 date-time with `Z` or an offset; date-only values are the mapping's job to expand. */
export const dateTime = z.iso.datetime({ offset: true });

/** Amounts are integers in the currency's minor units (docs/interface.md). */
export const minorUnits = z.number().int().nonnegative();

/** ISO 4217 alphabetic code, upper case. */
export const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'expected a 3-letter upper-case ISO 4217 code');

export const last4 = z.string().regex(/^\d{4}$/, 'expected 4 digits');
export const merchantCategoryCode = z.string().regex(/^\d{4}$/, 'expected a 4-digit merchant category code');
export const expiryMonth = z.number().int().min(1).max(12);
export const expiryYear = z.number().int().min(1970).max(2199);

/**
 * Custom fields (docs/interface.md): at most 25 keys, keys <= 50 characters, values strings
 * <= 250 characters. On update a `null` value removes the key.
 */
const customFieldKey = z.string().min(1).max(50);
const customFieldValue = z.string().max(250);
const atMost25Keys = (fields: Record<string, unknown>) => Object.keys(fields).length <= 25;
export const customFields = z
  .record(customFieldKey, customFieldValue)
  .refine(atMost25Keys, 'expected at most 25 custom fields');
export const customFieldsUpdate = z
  .record(customFieldKey, customFieldValue.nullable())
  .refine(atMost25Keys, 'expected at most 25 custom fields');
