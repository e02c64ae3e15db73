/** The results CSV's status columns, in order, before every source column (architecture.md, "Contracts"). */
export const statusColumns = [
  'line',
  'claim_key',
  'claim_id',
  'case_id',
  'outcome',
  'error_code',
  'error_message',
  'error_field',
  'http_status',
  'attempts',
  'file_ids',
] as const;

export type StatusColumn = (typeof statusColumns)[number];

export const outcomes = ['filed', 'created', 'not_filed', 'invalid', 'rejected', 'failed', 'valid'] as const;
export type Outcome = (typeof outcomes)[number];

/** Outcomes that mean the claim exists in the service. */
export const createdOutcomes: readonly string[] = ['filed', 'created', 'not_filed'];

/** Outcomes that count as ok for the exit code (0 when every row has one). */
export const okOutcomes: readonly string[] = ['filed', 'created', 'valid'];

/**
 * Whether a CSV is one of our results files fed back in (fixed by staff): it starts with the
 * status columns. Its source columns are the ones after them.
 */
export function isResultsHeader(header: readonly string[]): boolean {
  return statusColumns.every((column, position) => header[position] === column);
}
