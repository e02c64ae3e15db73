import { z } from 'zod';

/**
 * A mapping's `rows` section (docs/mappings.md, "Rows not for import, and the same dispute
 * twice"): which rows of an export are disputes to import, and whether one transaction may carry
 * several of them. Lifecycle reports hold a line per stage of a dispute and summary records beside
 * detail records; without a filter, each of them would become a case of its own or an invalid line.
 */

export const onlyValueExpected = 'expected a value as a string';
// `[01, 02]` are numbers to YAML: the message says to quote them rather than only "not a string".
const onlyValueGot = (input: unknown) =>
  typeof input === 'number' || typeof input === 'boolean'
    ? `the ${typeof input} ${String(input)} (quote it: "${String(input)}")`
    : JSON.stringify(input);

const onlyValuesSchema = z
  .array(z.string({ error: (issue) => `${onlyValueExpected}, got ${onlyValueGot(issue.input)}` }))
  .min(1, 'expected at least one value')
  .describe('the values the column may hold, compared trimmed and without regard to case');

export const rowsSchema = z
  .strictObject({
    only: z
      .record(z.string().min(1), onlyValuesSchema)
      .refine((columns) => Object.keys(columns).length > 0, 'expected at least one column')
      .optional()
      .describe(
        'column → the values it may hold: only rows where every listed column holds one of its values are ' +
          'imported; every other row is reported `skipped` and nothing of it is sent',
      ),
    several_disputes_per_transaction: z
      .boolean()
      .default(false)
      .describe(
        'this export may carry several disputes of one transaction (one ARN and amount): then only identical ' +
          'rows are reported `duplicate`; by default a second row with the same ARN and transaction amount is too',
      ),
  })
  .describe('which rows of the export are imported, and which describe a dispute already on an earlier line');

export type RowsSettings = z.output<typeof rowsSchema>;
