import type { z } from 'zod';
import type { newClaimBody } from '../../api/schemas/claim.js';
import { newClaimCase } from '../../filing-rules/new-claim-case.js';
import { resolutionDueDate } from '../rules/deadlines.js';

/**
 * The JSON of a case new_claim creates: stored as the case's document and answered as it is.
 * Shared fields are merged into each case and the card into its transaction.
 */

export type NewClaim = z.output<typeof newClaimBody>;
export type NewClaimCase = NewClaim['cases'][number];

/** The case as an object: what the text below must equal once serialised (and its fallback). */
export function caseDocument(
  body: NewClaim,
  item: NewClaimCase,
  ids: { caseId: string; claimId: string; created: string },
): Record<string, unknown> {
  // The merge the filing rules read, shared with the import's dry run (filing-rules/new-claim-case.ts).
  const merged = newClaimCase(body, item);
  return {
    case_id: ids.caseId,
    claim_id: ids.claimId,
    created: ids.created,
    status: 'created',
    closed_reason: null,
    review_status: null,
    resolution_due_date: resolutionDueDate(item.transaction.date),
    program_id: item.program_id ?? null,
    reason: merged.reason,
    custom_fields: item.custom_fields ?? {},
    cardholder: body.cardholder,
    dispute: merged.dispute,
    merchant: item.merchant,
    transaction: merged.transaction,
    issuer_evidence: merged.issuer_evidence,
  };
}

/** `,"key":value`, or nothing for a value JSON.stringify leaves out (undefined). */
function member(key: string, value: unknown): string {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? '' : `,"${key}":${text}`;
}

/** An object's JSON with `members` (each `,"key":value`) added at its end, as a spread then those keys would be. */
function withMembers(objectText: string, members: string): string {
  if (members === '') return objectText;
  return objectText === '{}' ? `{${members.slice(1)}}` : `${objectText.slice(0, -1)}${members}}`;
}

/**
 * Writes each case's text without building the merged object first (the spreads cost a new_claim
 * more than serialising the case). The members shared by the claim's cases are serialised once.
 * Byte for byte `JSON.stringify(caseDocument(...))`, which is still used where a spread would not
 * add a key at the end: a case's own `dispute.date` (…) or `transaction.card`, which the strict
 * schema refuses anyway.
 */
export function caseDocumentWriter(
  body: NewClaim,
  claimId: string,
  created: string,
): (item: NewClaimCase, caseId: string) => string {
  const reason = body.dispute?.reason ?? body.reason;
  const afterId = `,"claim_id":${JSON.stringify(claimId)},"created":${JSON.stringify(created)},"status":"created","closed_reason":null,"review_status":null`;
  const reasonMember = member('reason', reason);
  const cardholderMember = member('cardholder', body.cardholder);
  const disputeMembers =
    member('date', body.dispute?.date) + member('raised_by', body.dispute?.raised_by) + reasonMember;
  const cardMember = member('card', body.card);
  const issuerEvidenceMember = member('issuer_evidence', body.issuer_evidence ?? {});
  return (item, caseId) => {
    const dispute = item.dispute ?? {};
    const { transaction } = item;
    if (
      Object.hasOwn(dispute, 'date') ||
      Object.hasOwn(dispute, 'raised_by') ||
      Object.hasOwn(dispute, 'reason') ||
      Object.hasOwn(transaction, 'card')
    ) {
      return JSON.stringify(caseDocument(body, item, { caseId, claimId, created }));
    }
    return (
      `{"case_id":${JSON.stringify(caseId)}${afterId}` +
      member('resolution_due_date', resolutionDueDate(transaction.date)) +
      member('program_id', item.program_id ?? null) +
      reasonMember +
      member('custom_fields', item.custom_fields ?? {}) +
      cardholderMember +
      `,"dispute":${withMembers(JSON.stringify(dispute), disputeMembers)}` +
      member('merchant', item.merchant) +
      `,"transaction":${withMembers(JSON.stringify(transaction), cardMember)}` +
      `${issuerEvidenceMember}}`
    );
  };
}
