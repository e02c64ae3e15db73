import { CheckedBody } from '../../api/client/request-parts.js';
import { newClaimBody, type NewClaimBody } from '../../api/schemas/claim.js';
import type { ClaimRecord, RowProblem, RowRecord } from '../journal/journal.js';
import { wireFieldToMappingField } from '../../job-files/claims/wire-fields.js';

export type ClaimBody = NewClaimBody & { claim_id: string };

/**
 * The new_claim body of a staged claim: its shared fields once, one case per row in input order,
 * and the uploaded files of every row as the claim's documentation (first appearance first).
 */
export function buildClaimBody(
  claim: ClaimRecord & { claim_id: string },
  rows: readonly RowRecord[],
  fileIdsByRow: ReadonlyMap<number, readonly string[]>,
): ClaimBody {
  const shared = JSON.parse(claim.shared_json) as Record<string, unknown>;
  const documentation = [...new Set(rows.flatMap((row) => fileIdsByRow.get(row.idx) ?? []))];
  if (documentation.length > 0) {
    shared.issuer_evidence = { ...(shared.issuer_evidence as Record<string, unknown> | undefined), documentation };
  }
  const cases = rows.map((row) => ({ case_id: row.case_id, ...(JSON.parse(row.case_json ?? '{}') as object) }));
  return { ...shared, claim_id: claim.claim_id, cases } as ClaimBody;
}

/**
 * The whole body against the strict wire schema, the last check before sending (each row was
 * checked alone when staged; this catches what only the whole claim shows). Problems by row idx;
 * a claim-level problem lands on every row. Else the body as checked and serialised, sent as it
 * is (the client's create accepts a CheckedBody of the new_claim schema without a second check).
 */
export type ClaimBodyCheck =
  { ok: true; checked: CheckedBody<typeof newClaimBody> } | { ok: false; problems: Map<number, RowProblem> };

export function checkClaimBody(body: ClaimBody, rows: readonly RowRecord[]): ClaimBodyCheck {
  const parsed = CheckedBody.check(newClaimBody, body);
  if (parsed.ok) return { ok: true, checked: parsed.checked };
  const problems = new Map<number, RowProblem>();
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String);
    const field = wireFieldToMappingField(path);
    const problem = { code: 'schema_invalid', message: `${field}: ${issue.message}`, field };
    const targets = path[0] === 'cases' ? [rows[Number(path[1])]] : rows;
    for (const row of targets) if (row !== undefined && !problems.has(row.idx)) problems.set(row.idx, problem);
  }
  return { ok: false, problems };
}
