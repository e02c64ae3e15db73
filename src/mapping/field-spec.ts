import { z } from 'zod';
import { maxImpliedDecimals } from './transforms/amount.js';
import { dayOfYearProblem } from './transforms/date.js';
import { defaultTwoDigitWindowStart, maxWindowStart, minWindowStart } from './transforms/year.js';

/**
 * How one target field gets its value from a row (mappings/README.md). Exactly one
 * source (a column, a constant or a template), then the steps below, always in this order, so a
 * mapping reads the way it runs:
 * trim → default (blank cell) → required → last4 → split → case → enum → type (integer, boolean, year, amount, date).
 */
export const fieldSpecSchema = z
  .strictObject({
    column: z.string().min(1).optional().describe('CSV header of the source cell'),
    constant: z.union([z.string(), z.number(), z.boolean()]).optional().describe('a fixed value for every row'),
    template: z.string().min(1).optional().describe('text with {column name} placeholders, e.g. "CLM-{dispute_ref}"'),
    trim: z.boolean().default(true).describe('strip spaces around the cell'),
    default: z.string().optional().describe('value used when the cell is blank'),
    required: z.boolean().default(false).describe('a blank cell (after default) is a row error'),
    last4: z
      .boolean()
      .optional()
      .describe(
        'take the last four digits of a card number in the cell: 13 to 19 digits, whole or masked (first digits, ' +
          'X, x, *, # or • for the hidden ones, the last four: "546604XXXXXX4795", "497010******0012"), in groups ' +
          'or not; or its last four after a mask ("XXX1234", "**** 1234") or alone ("1234"); anything else is a row error',
      ),
    split: z
      .strictObject({ separator: z.string().min(1), index: z.number().int().nonnegative() })
      .optional()
      .describe('take one part, e.g. {separator: "/", index: 0} for the month of "12/28"'),
    case: z.enum(['upper', 'lower']).optional(),
    enum: z
      .record(z.string(), z.string())
      .optional()
      .describe('source value → API value; an unmapped value is a row error'),
    enum_case_sensitive: z.boolean().default(true),
    type: z.enum(['string', 'integer', 'boolean', 'year', 'amount', 'date']).default('string'),
    amount: z
      .strictObject({
        currency: z
          .string()
          .regex(/^[A-Z]{3}$/)
          .optional()
          .describe('fixed ISO 4217 currency'),
        currency_field: z.string().optional().describe('or the target field holding it, e.g. "dispute.currency"'),
        decimal_separator: z
          .enum(['.', ','])
          .optional()
          .describe('always explicit: "9,99" is never guessed; or implied_decimals'),
        // docs/mappings.md, "Amounts and signs as banks write them": fixed-width files write no separator.
        implied_decimals: z
          .number()
          .int()
          .min(0)
          .max(maxImpliedDecimals)
          .optional()
          .describe(
            'or: the cell has no decimal separator and its last N digits are the decimals ("000000001235" with 2 is ' +
              '12.35); a cell with a separator is a row error, amount_format',
          ),
        group_separator: z.enum([',', '.', ' ', "'", '']).default(''),
        // docs/mappings.md, "Amounts and signs as banks write them"; the wire never carries a negative.
        negative: z
          .enum(['refuse', 'magnitude'])
          .optional()
          .describe(
            'a negative amount ("-1.50", "1.50-", "(1.50)", or by sign_column): refuse (the default) makes it a row ' +
              'error, amount_negative; magnitude reads it as its size, for a report that writes a chargeback as a debit',
          ),
        sign_column: z
          .strictObject({
            column: z.string().min(1).describe('the column holding the amount\'s sign, e.g. "Credit Debit Indicator"'),
            negative: z.array(z.string()).min(1).describe('its cells that make the amount negative, e.g. ["-", "D"]'),
            positive: z.array(z.string()).min(1).describe('its cells that leave it positive, e.g. ["+", "C"]'),
          })
          .refine((sign) => !sign.negative.some((value) => sign.positive.includes(value)), {
            message: 'expected no value in both negative and positive',
          })
          .optional()
          .describe(
            'the sign from another column: an unsigned cell takes it, a signed cell must agree with it; a sign cell in ' +
              'neither list is a row error, amount_sign_unknown',
          ),
      })
      .refine((amount) => (amount.currency === undefined) !== (amount.currency_field === undefined), {
        message: 'expected exactly one of currency and currency_field',
      })
      .refine((amount) => amount.decimal_separator !== undefined || amount.implied_decimals !== undefined, {
        message: 'expected decimal_separator or implied_decimals, got neither',
      })
      // One meaning per cell: with implied decimals a separator in a cell is an error, never read.
      .refine((amount) => amount.decimal_separator === undefined || amount.implied_decimals === undefined, {
        message: 'expected decimal_separator or implied_decimals, got both',
        path: ['implied_decimals'],
      })
      .refine((amount) => amount.implied_decimals === undefined || amount.group_separator === '', {
        message: 'expected no group_separator with implied_decimals (its digits are never grouped)',
        path: ['group_separator'],
      })
      .optional(),
    date: z
      .strictObject({
        format: z
          .string()
          .min(1)
          // A Java-style day of the year luxon would read as a localized date (transforms/date.ts).
          .refine((format) => dayOfYearProblem(format) === undefined, {
            error: (issue) => dayOfYearProblem(String(issue.input)) ?? 'expected a luxon format',
          })
          .describe(
            'luxon format, e.g. "dd.MM.yyyy" or "yyyy-MM-dd HH:mm" ("yyyyDDD" or "yyyyooo" for a year and its ' +
              'day of the year); or "iso" for ISO 8601 dates and date-times with or without seconds, fractions and an offset',
          ),
        time_zone: z
          .string()
          .min(1)
          .default('UTC')
          .describe('IANA zone for values with a time; date-only values keep their calendar date'),
      })
      .optional(),
    year: z
      .strictObject({
        two_digit_window_start: z
          .number()
          .int()
          .min(minWindowStart)
          .max(maxWindowStart)
          .default(defaultTwoDigitWindowStart)
          .describe(
            'two-digit years fall in the 100 years from this one: 2000 reads "28" as 2028, 1950 reads "49" as 2049 and "50" as 1950',
          ),
      })
      .optional()
      .describe(
        'type year: a two- or four-digit year ("28" or "2028") to four digits; without this section, two-digit years are 20xx',
      ),
  })
  .refine((spec) => [spec.column, spec.constant, spec.template].filter((source) => source !== undefined).length === 1, {
    message: 'expected exactly one of column, constant and template',
  })
  .refine((spec) => spec.type !== 'amount' || spec.amount !== undefined, {
    message: 'type amount: expected an amount section',
    path: ['amount'],
  })
  .refine((spec) => spec.type !== 'date' || spec.date !== undefined, {
    message: 'type date: expected a date section',
    path: ['date'],
  });

export type FieldSpec = z.output<typeof fieldSpecSchema>;
