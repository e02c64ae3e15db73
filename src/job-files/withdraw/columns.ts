/**
 * What a withdraw job's results say: their columns and outcomes. Read by the report and the review
 * as well as written by src/withdraw/results.ts, so they sit here, below all three.
 */

/** The withdraw results' columns: one line per case. */
export const withdrawColumns = [
  'claim_key',
  'claim_id',
  'case_id',
  'status_before',
  'outcome',
  'status_after',
  'error_code',
  'error_message',
  'http_status',
  'attempts',
] as const;

export const withdrawOutcomes = [
  'withdrawn',
  'deleted',
  'already_closed',
  'not_found',
  'refused',
  'failed',
  'would_withdraw',
  'would_delete',
] as const;

/** Outcomes that leave nothing to do: the claim or case is closed (or gone) at the service, or would be. */
export const withdrawOkOutcomes: readonly string[] = [
  'withdrawn',
  'deleted',
  'already_closed',
  'would_withdraw',
  'would_delete',
];
