import type { SandboxCore } from './core.js';
import { filingErrors, type FilingError } from './rules/filing-validation.js';
import { fileable, type Transition } from './rules/states.js';
import { casesOfClaim, findClaim, findFile, readDocument, saveCase, updateClaim, writeDocument, type CaseRow } from './store/records.js';
import { caseView } from './views.js';

/** How a case changes status: filing (file claim, file case, run_workflow) and withdrawal (claim, case). */

export function validateForFiling(core: SandboxCore, row: CaseRow): FilingError[] {
  const categoryOf = (fileId: string) => findFile(core.database, row.environment, fileId)?.category;
  return filingErrors(caseView(row), categoryOf, core.now());
}

export function caseState(row: CaseRow) {
  return { status: row.status, filed: row.filed === 1, workflowState: row.workflow_state };
}

/**
 * Files one case if it can be: `created`, not mid-workflow, and valid. Returns whether it ended
 * up filed; a case already filed counts as filed, so filing a claim again is harmless.
 * Call inside a transaction.
 */
export function fileCaseIfValid(core: SandboxCore, row: CaseRow): boolean {
  if (row.filed === 1 && row.status === 'chargeback_filed') return true;
  if (!fileable(caseState(row))) return false;
  if (validateForFiling(core, row).length > 0) return false;
  markFiled(core, row);
  return true;
}

export function markFiled(core: SandboxCore, row: CaseRow): void {
  row.status = 'chargeback_filed';
  row.filed = 1;
  row.workflow_state = null;
  writeDocument(row, { ...readDocument(row), status: row.status });
  saveCase(core.database, row);
  core.recordEvent(row.environment, 'case.chargeback_filed', row.case_id);
  if (row.claim_id !== null) refreshClaimStatus(core, row.environment, row.claim_id);
}

/**
 * Claim status (service-notes.md): `open` until a case is filed, `filed` once any is, never back
 * (a filed case cannot leave its claim).
 */
export function refreshClaimStatus(core: SandboxCore, environment: CaseRow['environment'], claimId: string): void {
  const claim = findClaim(core.database, environment, claimId);
  if (!claim || claim.status !== 'open') return;
  const anyFiled = casesOfClaim(core.database, environment, claimId).some((caseRow) => caseRow.filed === 1);
  const status = anyFiled ? 'filed' : 'open';
  if (status !== claim.status) updateClaim(core.database, { ...claim, status, updated: core.nowIso() });
}

/** Applies a withdrawal's transition (rules/states.ts) and records `case.withdrawn`. Call inside a transaction. */
export function applyWithdrawal(core: SandboxCore, row: CaseRow, transition: Transition): void {
  writeDocument(row, { ...readDocument(row), closed_reason: transition.closedReason });
  saveCase(core.database, { ...row, status: transition.status, workflow_state: null });
  core.recordEvent(row.environment, 'case.withdrawn', row.case_id);
}
