import { z } from 'zod';
import { caseResponse, updateCaseBody, type CaseUpdate } from '../schemas/case.js';
import { fileBody, successResponse, type FileBody } from '../schemas/claim.js';
import { listPage, listQuery, type ListQuery } from '../schemas/list.js';
import { caseReviewResponse } from '../schemas/resources.js';
import { paginate } from './paginate.js';
import { endpoint, jsonOf, queryOf } from './request-parts.js';
import type { Transport } from './transport.js';

const casePage = listPage(caseResponse);
const casePath = '/v2/issuer/cases/{case_id}';

/** /v2/issuer/cases. Filing and run_workflow are not repeatable; the rest is. */
export class CasesEndpoints {
  constructor(private readonly transport: Transport) {}

  /** GET /v2/issuer/cases/{case_id}: one case, from the production service's public reference. */
  async retrieve(caseId: string) {
    return endpoint(this.transport, 'GET', casePath, {
      params: { case_id: caseId },
      repeatable: true,
      response: caseResponse,
    });
  }

  /**
   * PUT /v2/issuer/cases/{case_id}. The document does not show the response body, so whatever
   * comes back (nothing included) is accepted as it is: read the case back with `retrieve`.
   */
  async update(caseId: string, body: CaseUpdate) {
    return endpoint(this.transport, 'PUT', casePath, {
      params: { case_id: caseId },
      body: jsonOf(updateCaseBody, body),
      repeatable: true,
      response: z.unknown(),
    });
  }

  /** DELETE /v2/issuer/cases/{case_id}: only while unfiled. A retried delete may answer 404. */
  async delete(caseId: string) {
    return endpoint(this.transport, 'DELETE', casePath, {
      params: { case_id: caseId },
      repeatable: true,
      response: successResponse,
    });
  }

  /** POST .../withdraw: only in `created` or `chargeback_filed`. */
  async withdraw(caseId: string) {
    return endpoint(this.transport, 'POST', `${casePath}/withdraw`, {
      params: { case_id: caseId },
      repeatable: true,
      response: successResponse,
    });
  }

  /** POST .../run_workflow: 202 means accepted for evaluation, not filed. */
  async runWorkflow(caseId: string) {
    return endpoint(this.transport, 'POST', `${casePath}/run_workflow`, {
      params: { case_id: caseId },
      repeatable: false,
      caseScoped: true,
      response: successResponse,
    });
  }

  /** POST .../file with `file_mode` (docs/sandbox.md). */
  async file(caseId: string, body: FileBody) {
    return endpoint(this.transport, 'POST', `${casePath}/file`, {
      params: { case_id: caseId },
      body: jsonOf(fileBody, body),
      repeatable: false,
      caseScoped: true,
      response: successResponse,
    });
  }

  /** GET .../review: `processing` until the evaluation completes. */
  async review(caseId: string) {
    return endpoint(this.transport, 'GET', `${casePath}/review`, {
      params: { case_id: caseId },
      repeatable: true,
      response: caseReviewResponse,
    });
  }

  /** GET /v2/issuer/cases: one page of full cases. */
  async list(query: ListQuery = {}) {
    return endpoint(this.transport, 'GET', '/v2/issuer/cases', {
      query: queryOf(listQuery, query),
      repeatable: true,
      response: casePage,
    });
  }

  listAll(start: ListQuery = {}) {
    return paginate(
      async (cursor) => this.list(cursor),
      (record) => record.case_id,
      start,
    );
  }
}
