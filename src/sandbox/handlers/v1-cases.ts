import { v1CaseStatuses } from '../../api/schemas/known-values.js';
import { v1CreateCaseBody } from '../../api/schemas/v1.js';
import { fileCaseIfValid } from '../lifecycle.js';
import { parseBody } from '../http/body.js';
import { validationError } from '../http/errors.js';
import type { HandlerCall, Reply } from '../http/routes.js';
import { resolutionDueDate } from '../rules/deadlines.js';
import { insertCase, type CaseRow } from '../store/records.js';
import { v1CaseView } from '../views.js';
import { listReply, refuseExistingCase, requireCase } from './shared.js';

/** POST /v1/issuer/cases: one case, no claim; `file` files it on creation. */
export async function createV1Case(call: HandlerCall): Promise<Reply> {
  const body = parseBody(v1CreateCaseBody, await call.json());
  const { core, environment } = call;
  return core.transaction(() => {
    const caseId = body.case_id ?? core.newId('case');
    refuseExistingCase(core, environment, caseId);
    const { file, ...fields } = body;
    const document = {
      ...fields,
      case_id: caseId,
      created: core.nowIso(),
      status: 'created',
      chargeback_due_date: resolutionDueDate(body.transaction.date) ?? null,
      closed_reason: null,
      review_status: null,
    };
    insertCase(core.database, {
      environment,
      case_id: caseId,
      claim_id: null,
      api_version: 1,
      status: 'created',
      filed: 0,
      workflow_state: null,
      unavailable: 0,
      document: JSON.stringify(document),
    });
    core.recordEvent(environment, 'case.created', caseId);
    const row = requireCase(core, environment, caseId);
    if (file !== undefined) fileCaseIfValid(core, row, file);
    return { status: 201, body: v1CaseView(requireCase(core, environment, caseId)) };
  });
}

/** GET /v1/issuer/cases: the cases created through version 1, with an optional `status` filter. */
export async function listV1Cases(call: HandlerCall): Promise<Reply> {
  const status = call.query.get('status');
  if (status !== null && !(v1CaseStatuses as readonly string[]).includes(status)) {
    throw validationError('invalid query parameter status', [
      {
        code: 'parameter_invalid',
        details: { field: 'status' },
        message: `status: expected one of ${v1CaseStatuses.join(', ')}, got ${JSON.stringify(status)}`,
      },
    ]);
  }
  const where = status === null ? 'api_version = 1' : 'api_version = 1 AND status = ?';
  const params = status === null ? [] : [status];
  return listReply<CaseRow>(call, { table: 'cases', idColumn: 'case_id', where, params }, v1CaseView);
}
