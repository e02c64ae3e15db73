import { updateCaseBody } from '../../api/schemas/case.js';
import { fileBody } from '../../api/schemas/claim.js';
import { parseBody } from '../http/body.js';
import { simpleError, validationError } from '../http/errors.js';
import type { HandlerCall, Reply } from '../http/routes.js';
import { applyWithdrawal, caseState, fileCaseIfValid, validateForFiling, workflowOutcomeOf } from '../lifecycle.js';
import { conditionsReview, documentationReview, fraudLiability } from '../rules/review.js';
import { deleteRefusal, runWorkflowRefusal, updateRefusal, withdrawCase } from '../rules/states.js';
import { deleteCaseRow, findFile, readDocument, saveCase, writeDocument, type CaseRow } from '../store/records.js';
import { caseView } from '../views.js';
import { finishWorkflow } from '../workflow.js';
import { mergeCaseUpdate } from './case-update.js';
import { listReply, requireCase, withCase } from './shared.js';

/** /v2/issuer/cases: each change is one transaction around the lookup (`withCase`). */

export async function retrieveCase(call: HandlerCall): Promise<Reply> {
  return { status: 200, body: caseView(requireCase(call.core, call.environment, call.params.case_id ?? '')) };
}

export async function listCases(call: HandlerCall): Promise<Reply> {
  return listReply<CaseRow>(call, { table: 'cases', idColumn: 'case_id' }, caseView);
}

/** PUT /v2/issuer/cases/{case_id}: merges the given fields; answers the updated case. */
export async function updateCase(call: HandlerCall): Promise<Reply> {
  const body = parseBody(updateCaseBody, await call.json());
  return withCase(call, (row) => {
    if (body.case_id !== undefined && body.case_id !== row.case_id) {
      throw validationError('request failed validation', [
        {
          code: 'parameter_invalid',
          details: { field: 'case_id' },
          message: `case_id: expected ${row.case_id} (the case in the path), got ${body.case_id}`,
        },
      ]);
    }
    const refusal = updateRefusal(caseState(row));
    if (refusal) throw refusal;
    if (row.api_version === 1) throw simpleError(400, 'version 1 cases are updated through version 1 only');
    writeDocument(row, mergeCaseUpdate(readDocument(row), body));
    saveCase(call.core.database, row);
    return { status: 200, body: caseView(row) };
  });
}

export async function deleteCase(call: HandlerCall): Promise<Reply> {
  return withCase(call, (row) => {
    const refusal = deleteRefusal(caseState(row));
    if (refusal) throw refusal;
    deleteCaseRow(call.core.database, row);
    return { status: 200, body: { success: true } };
  });
}

export async function withdrawCaseHandler(call: HandlerCall): Promise<Reply> {
  return withCase(call, (row) => {
    const transition = withdrawCase(caseState(row));
    if (transition instanceof Error) throw transition;
    applyWithdrawal(call.core, row, transition);
    return { status: 202, body: { success: true } };
  });
}

/** POST /v2/issuer/cases/{case_id}/file: 202 `{success}`; a failing case is reported, not filed. */
export async function fileCase(call: HandlerCall): Promise<Reply> {
  const { file_mode: mode } = parseBody(fileBody, await call.json());
  return withCase(call, (row) => ({ status: 202, body: { success: fileCaseIfValid(call.core, row, mode) } }));
}

/**
 * POST /v2/issuer/cases/{case_id}/run_workflow: 202 means accepted for evaluation, not filed.
 * The evaluation takes `workflowDelayMs`, during which a second call is "already running".
 */
export async function runWorkflow(call: HandlerCall): Promise<Reply> {
  const { core, environment } = call;
  const reply = withCase(call, (row) => {
    if (row.unavailable === 1)
      throw simpleError(503, 'case is temporarily unavailable for filing; retry later', { 'retry-after': '1' });
    const refusal = runWorkflowRefusal(caseState(row));
    if (refusal) throw refusal;
    const errors = validateForFiling(core, row);
    if (errors.length > 0) throw validationError('case failed validation', errors);
    saveCase(core.database, { ...row, workflow_state: 'running' });
    return { status: 202, body: { success: true } };
  });
  const caseId = call.params.case_id ?? '';
  core.later(core.workflowDelayMs, () => {
    finishWorkflow(core, environment, caseId);
  });
  return reply;
}

/**
 * GET /v2/issuer/cases/{case_id}/review: `processing` while the workflow runs, then `complete`
 * with what stops filing, what the rules decide, and the documentation and conditions reviews.
 */
export async function reviewCase(call: HandlerCall): Promise<Reply> {
  const { core, environment } = call;
  const row = requireCase(core, environment, call.params.case_id ?? '');
  if (row.workflow_state === 'running') return { status: 200, body: { status: 'processing' } };
  const view = caseView(row);
  const documentation = (view.issuer_evidence as { documentation?: string[] } | undefined)?.documentation ?? [];
  const files = documentation.flatMap((fileId) => {
    const file = findFile(core.database, environment, fileId);
    return file ? [{ id: file.file_id, category: file.category }] : [];
  });
  const body = {
    status: 'complete',
    filing_errors: row.filed === 1 ? [] : validateForFiling(core, row),
    workflow: { outcome: workflowOutcomeOf(core, row) },
    documentation_review: documentationReview(files, environment),
    conditions_review: conditionsReview(view, environment),
    fraud_liability: fraudLiability(view, environment),
  };
  return { status: 200, body };
}
