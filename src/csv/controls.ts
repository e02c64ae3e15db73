import { z } from 'zod';
import { regexSource } from './report-layout.js';

/**
 * Control figures (docs/mappings.md, "Fixed-width files and control records"): a trailer's record
 * count and amount total let the receiver prove that a file arrived whole. A mapping names where
 * the trailer states them; the import compares them with what it read, block by block, before
 * anything is staged or sent.
 */

/** A pattern whose first group captures the figure: the value is that group's text. */
const regexWithGroup = regexSource.refine(
  (source) => {
    try {
      return (new RegExp(`${source}|`, 'u').exec('')?.length ?? 0) > 1;
    } catch {
      // Said once, by the compile check before this one.
      return true;
    }
  },
  { error: (issue) => `expected a regular expression with one capturing group, got ${JSON.stringify(issue.input)}` },
);

/** Where a control figure is: a trailer field of a fixed-width layout, or a capture in a CSV trailer line. */
const figureSource = {
  field: z.string().min(1).optional().describe("fixed-width: the trailer record's field holding the figure"),
  matches: regexWithGroup
    .optional()
    .describe(
      "a CSV report: a regular expression over a trailer line's text (its cells joined by the delimiter), " +
        'its first group the figure, e.g. "^TOTAL RECORDS,(\\\\d+)"',
    ),
};
const oneSource = (figure: { field?: string | undefined; matches?: string | undefined }) =>
  (figure.field === undefined) !== (figure.matches === undefined);

export const controlsSchema = z.strictObject({
  record_count: z
    .strictObject({
      ...figureSource,
      counts: z
        .enum(['detail_records', 'all_records'])
        .describe(
          'what the count counts: the detail records (the rows) of the block, or all its records, header and ' +
            'trailer included (records of an ignored type too; blank lines never)',
        ),
    })
    .refine(oneSource, { message: 'expected exactly one of field and matches' })
    .optional(),
  amount_total: z
    .strictObject({
      ...figureSource,
      sums: z.string().min(1).describe('the column (a detail field) whose amounts the total adds up'),
      implied_decimals: z
        .number()
        .int()
        .min(0)
        .max(12)
        .default(0)
        .describe(
          'digits of a figure written without a decimal point that are decimals ("000000001235" with 2: 12.35)',
        ),
    })
    .refine(oneSource, { message: 'expected exactly one of field and matches' })
    .optional(),
});

export type Controls = z.output<typeof controlsSchema>;
