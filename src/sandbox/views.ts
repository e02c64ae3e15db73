import { v1CaseToV2 } from './v1-to-v2.js';
import { readDocument, type CaseDocument, type CaseRow, type ClaimRow } from './store/records.js';

/** The resources as the API returns them, built from stored rows. */

/** A case in the v2 shape; a v1 case is converted (docs/sandbox.md, "Version 1"). */
export function caseView(row: CaseRow): CaseDocument {
  const document = readDocument(row);
  const view = row.api_version === 1 ? v1CaseToV2(document) : document;
  return { ...view, case_id: row.case_id, claim_id: row.claim_id ?? undefined, status: row.status };
}

/** A v1 case in the v1 shape. */
export function v1CaseView(row: CaseRow): CaseDocument {
  return { ...readDocument(row), case_id: row.case_id, claim_id: row.claim_id ?? undefined, status: row.status };
}

/** `cases` holds full case objects (new_claim, retrieve) or objects with only `case_id`. */
export function claimView(claim: ClaimRow, cases: CaseRow[], full: boolean): Record<string, unknown> {
  return {
    claim_id: claim.claim_id,
    created: claim.created,
    updated: claim.updated,
    status: claim.status,
    cases: cases.map((row) => (full ? caseView(row) : { case_id: row.case_id })),
  };
}

export function claimSummaryView(claim: ClaimRow): Record<string, unknown> {
  return { claim_id: claim.claim_id, created: claim.created, status: claim.status };
}
