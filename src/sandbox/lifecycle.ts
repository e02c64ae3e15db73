import type { SandboxCore } from './core.js';
import { filingErrors, type FilingError } from '../filing-rules/filing-errors.js';
import { conditionsReview } from './rules/review.js';
import { fileable, type Transition } from './rules/states.js';
import { evaluateRules, type WorkflowOutcome } from './rules/workflow-rules.js';
import {
  casesOfClaim,
  findClaim,
  findFile,
  readDocument,
  saveCase,
  updateClaim,
  writeDocument,
  type CaseRow,
} from './store/records.js';
import { caseView } from './views.js';

/** How a case changes status: filing (file claim, file case, run_workflow) and withdrawal (claim, case). */

export function validateForFiling(core: SandboxCore, row: CaseRow): FilingError[] {
  const categoryOf = (fileId: string) => findFile(core.database, row.environment, fileId)?.category;
  return filingErrors(caseView(row), categoryOf, core.now());
}

export function caseState(row: CaseRow) {
  return { status: row.status, filed: row.filed === 1, workflowState: row.workflow_state };
}

export type FileMode = 'chargeback' | 'auto';

/**
 * Files one case if it can be: `created`, not mid-workflow, and valid; in `auto` mode, only if
 * the workflow rules say `file_chargeback` (otherwise their outcome is applied). Returns whether
 * it ended up filed; a case already filed counts as filed, so filing again is harmless.
 * Call inside a transaction.
 */
export function fileCaseIfValid(core: SandboxCore, row: CaseRow, mode: FileMode = 'chargeback'): boolean {
  if (row.filed === 1 && row.status === 'chargeback_filed') return true;
  if (!fileable(caseState(row))) return false;
  if (validateForFiling(core, row).length > 0) return false;
  const outcome = mode === 'chargeback' ? 'file_chargeback' : workflowOutcomeOf(core, row);
  return applyOutcome(core, row, outcome);
}

/** What the workflow rules decide for this case now. */
export function workflowOutcomeOf(core: SandboxCore, row: CaseRow): WorkflowOutcome {
  const view = caseView(row);
  const dispute = (view.dispute ?? {}) as Record<string, unknown>;
  return evaluateRules(core.rules, {
    reason: (dispute.reason ?? view.reason) as string | undefined,
    amount: dispute.amount as number | undefined,
    merchantCategoryCode: (view.merchant as Record<string, unknown> | undefined)?.category_code as string | undefined,
    customFields: (view.custom_fields ?? {}) as Record<string, string>,
    meetsConditions: conditionsReview(view, row.environment).meets_conditions,
  });
}

/** Carries out a workflow outcome on a valid, created case; true when it filed the case. */
function applyOutcome(core: SandboxCore, row: CaseRow, outcome: WorkflowOutcome): boolean {
  if (outcome === 'file_chargeback') {
    markFiled(core, row);
    return true;
  }
  if (outcome === 'flag_for_review') {
    const document = readDocument(row);
    // Flagged once: evaluating again does not announce it again.
    if (document.review_status !== 'chargeback_needs_review') {
      writeDocument(row, { ...document, review_status: 'chargeback_needs_review' });
      core.recordEvent(row.environment, 'case.chargeback_needs_review', row.case_id);
    }
    saveCase(core.database, { ...row, workflow_state: null });
    return false;
  }
  // queue / hold: the case waits, `created`, with the rules' verdict as its workflow state.
  saveCase(core.database, { ...row, workflow_state: outcome === 'queue' ? 'queued' : 'held' });
  return false;
}

export function markFiled(core: SandboxCore, row: CaseRow): void {
  row.status = 'chargeback_filed';
  row.filed = 1;
  row.workflow_state = null;
  // Filed, the case needs no review any more, whatever a rule flagged before.
  writeDocument(row, { ...readDocument(row), status: row.status, review_status: null });
  saveCase(core.database, row);
  // One reading of the clock for the event and the path, so the path counts from the filing the event shows.
  const filedAt = core.nowIso();
  core.recordEvent(row.environment, 'case.chargeback_filed', row.case_id, filedAt);
  core.outcomes?.schedule(row, filedAt);
  if (row.claim_id !== null) refreshClaimStatus(core, row.environment, row.claim_id);
}

/**
 * Claim status (docs/sandbox.md, "Claims"): `open` until a case is filed, `filed` once any is,
 * never back (a filed case cannot leave its claim).
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
