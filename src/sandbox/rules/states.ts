import { closedCaseStatuses } from '../../api/schemas/known-values.js';
import { simpleError, type SandboxHttpError } from '../http/errors.js';

/**
 * The service's case states and the moves between them, as pure decisions over a case's
 * status. Messages are the service's own, word for word. Where the service leaves a case
 * unspecified, the sandbox's choice is marked and listed in docs/sandbox.md.
 */

export interface CaseState {
  status: string;
  /** Filed with the card network at some point (status after filing). */
  filed: boolean;
  workflowState: string | null;
}

export interface Transition {
  status: string;
  closedReason: string | null;
}

export function isClosed(status: string): boolean {
  return closedCaseStatuses.has(status);
}

/** Withdraw claim, per case. Undefined: the case stays as it is (already closed). */
export function withdrawnWithClaim(state: CaseState): Transition | undefined {
  if (isClosed(state.status)) return undefined;
  // created → closed, closed_reason withdrawn.
  if (!state.filed) return { status: 'closed', closedReason: 'withdrawn' };
  // Filed case (any status after filing) → lost, closed_reason withdrawn.
  return { status: 'lost', closedReason: 'withdrawn' };
}

/** Withdraw case: allowed only in created or chargeback_filed. */
export function withdrawCase(state: CaseState): Transition | SandboxHttpError {
  if (isClosed(state.status)) return simpleError(400, 'cannot withdraw a case that is already closed');
  // The next state is not shown: the sandbox uses the claim withdrawal's outcome for each.
  if (state.status === 'created') return { status: 'closed', closedReason: 'withdrawn' };
  if (state.status === 'chargeback_filed') return { status: 'lost', closedReason: 'withdrawn' };
  // Sandbox choice: past chargeback_filed the network process owns the case.
  return simpleError(
    400,
    `cannot withdraw a case in status ${state.status}: only created or chargeback_filed cases can be withdrawn`,
  );
}

/** Delete case: only a case that has not been filed. */
export function deleteRefusal(state: CaseState): SandboxHttpError | undefined {
  if (state.workflowState === 'running') return simpleError(400, 'workflow is already running for this case');
  if (state.filed) return simpleError(400, 'case has been filed with the card network and cannot be deleted');
  // Sandbox choice: a withdrawn (closed) case is kept as a record.
  if (isClosed(state.status)) return simpleError(400, 'case is closed and cannot be deleted');
  return undefined;
}

/** Update case: a filed case cannot be modified (docs/sandbox.md, "Delete and update"). */
export function updateRefusal(state: CaseState): SandboxHttpError | undefined {
  // While the workflow owns the case, it is not changed: the service answers 400 then too.
  if (state.workflowState === 'running') return simpleError(400, 'workflow is already running for this case');
  if (state.filed) return simpleError(400, 'case has been filed with the card network and cannot be modified');
  if (isClosed(state.status)) return simpleError(400, 'case is closed and cannot be modified');
  return undefined;
}

/** run_workflow's 400 rows, in the table's order; validation is checked after these. */
export function runWorkflowRefusal(state: CaseState): SandboxHttpError | undefined {
  if (state.workflowState === 'running') return simpleError(400, 'workflow is already running for this case');
  if (state.workflowState === 'queued') return simpleError(400, 'case is already queued for filing');
  if (isClosed(state.status)) return simpleError(400, 'case is already closed');
  // Sandbox choice: only a created case has a workflow to run.
  if (state.filed) return simpleError(400, 'case has already been filed with the card network');
  return undefined;
}

/** Whether file claim / file case may file this case now (validation comes next). Queued and held cases may. */
export function fileable(state: CaseState): boolean {
  return state.status === 'created' && !state.filed && state.workflowState !== 'running';
}
