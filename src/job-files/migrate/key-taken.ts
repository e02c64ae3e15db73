import type { Claim } from '../../api/schemas/claim.js';
import type { MigrateRow, Problem } from './journal.js';

/**
 * Whether a claim found under the group's id is another group's: a migrated claim is made of
 * existing cases, so it is this group's when it holds some of the group's cases and no case outside
 * the group (a case belongs to one claim only). The problem, or undefined when ours.
 */
export function keyTaken(
  found: Claim,
  rows: readonly Pick<MigrateRow, 'case_id'>[],
  httpStatus?: number,
): Problem | undefined {
  const ours = new Set(rows.map((row) => row.case_id));
  const held = (found.cases ?? []).map((item) => item.case_id);
  const foreign = held.filter((caseId) => !ours.has(caseId));
  if (held.some((caseId) => ours.has(caseId)) && foreign.length === 0) return undefined;
  const what =
    held.length === 0
      ? 'no case'
      : foreign.length === held.length
        ? `only other cases (${describeCases(foreign)})`
        : `other cases too (${describeCases(foreign)})`;
  return {
    code: 'claim_key_taken',
    message:
      `claim ${found.claim_id}: expected a claim of this group's cases, got one holding ${what} under the ` +
      `same group key; left as it is, not adopted. Group with a --group-by that tells the two apart, or ` +
      `migrate these cases one claim per case`,
    httpStatus,
  };
}

function describeCases(caseIds: readonly string[]): string {
  return caseIds.length <= 3 ? caseIds.join(', ') : `${caseIds.slice(0, 3).join(', ')} and ${caseIds.length - 3} more`;
}
