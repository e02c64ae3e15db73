import { createHash } from 'node:crypto';
import type { MappedRow } from '../mapping/map-row.js';
import type { Mapping } from '../mapping/schema.js';

/**
 * What says that two rows of one run describe the same dispute (docs/import.md, "Duplicates"):
 * every cell equal, or the same transaction (its ARN and amount, as the mapping reads them). The
 * journal compares them once every row is staged (src/import/journal/duplicates.ts), so that memory
 * stays flat however large the file.
 */

/**
 * A digest of a row's cells as staged (masked, a results file's source columns only): rows with
 * equal digests are compared cell for cell before one is called the other's duplicate, so the
 * digest needs only to make a false match too rare to cost a comparison.
 */
export function sameRowDigest(source: string): string {
  return createHash('sha256').update(source).digest('base64').slice(0, 22);
}

/**
 * The transaction a mapped row disputes, `[arn, amount]` as JSON, or undefined when the mapping
 * says an export may carry several disputes of one transaction (`rows.several_disputes_per_transaction`),
 * or the row has no ARN or amount (a mapping that reads none: only identical rows are duplicates).
 */
export function sameTransactionOf(row: MappedRow, mapping: Pick<Mapping, 'rows'>): string | undefined {
  if (mapping.rows?.several_disputes_per_transaction === true) return undefined;
  const transaction = row.case.transaction as { arn?: unknown; amount?: unknown } | undefined;
  const arn = transaction?.arn;
  const amount = transaction?.amount;
  if (typeof arn !== 'string' || arn === '' || amount === undefined) return undefined;
  return JSON.stringify([arn, amount]);
}
