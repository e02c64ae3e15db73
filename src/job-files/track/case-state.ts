/**
 * What `track` keeps of a case (docs/track.md): the fields a dispute team acts on, read tolerantly
 * from the case the service answers (a status or reason this build does not know is kept as it
 * is). Amounts are the dispute's, in minor units, falling back to the transaction's.
 */
export interface CaseState {
  readonly claimId: string;
  readonly status: string;
  readonly closedReason: string;
  readonly reviewStatus: string;
  /** ISO 8601, or '' when the service gives none. */
  readonly resolutionDueDate: string;
  /** Minor units; undefined when the case carries no amount. */
  readonly amount: number | undefined;
  readonly currency: string;
  readonly reason: string;
  readonly created: string;
}

export function caseStateOf(found: Record<string, unknown>): CaseState {
  const dispute = objectAt(found, 'dispute');
  const transaction = objectAt(found, 'transaction');
  const amount = numberAt(dispute, 'amount') ?? numberAt(transaction, 'amount');
  return {
    claimId: textAt(found, 'claim_id'),
    status: textAt(found, 'status'),
    closedReason: textAt(found, 'closed_reason'),
    reviewStatus: textAt(found, 'review_status'),
    resolutionDueDate: textAt(found, 'resolution_due_date'),
    amount,
    currency: textAt(dispute, 'currency') || textAt(transaction, 'currency'),
    reason: textAt(dispute, 'reason') || textAt(found, 'reason'),
    created: textAt(found, 'created'),
  };
}

/** The state as the journal keeps it: the same fields in the same order, so that equal states are equal text. */
export function serialiseState(state: CaseState): string {
  return JSON.stringify([
    state.claimId,
    state.status,
    state.closedReason,
    state.reviewStatus,
    state.resolutionDueDate,
    state.amount ?? null,
    state.currency,
    state.reason,
    state.created,
  ]);
}

export function parseState(text: string): CaseState {
  const [claimId, status, closedReason, reviewStatus, resolutionDueDate, amount, currency, reason, created] =
    JSON.parse(text) as [string, string, string, string, string, number | null, string, string, string];
  return {
    claimId,
    status,
    closedReason,
    reviewStatus,
    resolutionDueDate,
    amount: amount ?? undefined,
    currency,
    reason,
    created,
  };
}

/** The case statuses after which nothing more happens to a dispute. */
export const finalStatuses: ReadonlySet<string> = new Set(['won', 'lost', 'closed']);
/** A case created and never filed: nothing goes to the network until it is. */
export const neverFiledStatus = 'created';
/** The merchant answered and the issuer must act: represented, or in pre-arbitration or arbitration. */
export const answeredStatuses: ReadonlySet<string> = new Set([
  'chargeback_represented',
  'prearb_filed',
  'prearb_rebutted',
  'arbitration_filed',
]);

function objectAt(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = record[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function textAt(record: Record<string, unknown>, key: string): string {
  const value = record[key];
  return typeof value === 'string' ? value : '';
}

function numberAt(record: Record<string, unknown>, key: string): number | undefined {
  const value = record[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
