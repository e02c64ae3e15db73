import { z } from 'zod';
import { caseResponse, updateCaseBody, type CaseUpdate } from '../schemas/case.js';
import { fileBody, successResponse, type FileBody } from '../schemas/claim.js';
import { listPage, listQuery, type ListQuery } from '../schemas/list.js';
import { caseReviewResponse } from '../schemas/resources.js';
import { paginate } from './paginate.js';
import { endpoint, jsonOf, queryOf } from './request-parts.js';
import type { Transport } from './transport.js';

const casePath = '/v2/issuer/cases/{case_id}';

/** The cases operations, one line each: filing and run_workflow are not repeatable; the rest is. */
const operations = {
  retrieve: { method: 'GET', path: casePath, repeatable: true, response: caseResponse },
  update: { method: 'PUT', path: casePath, repeatable: true, response: z.unknown() },
  delete: { method: 'DELETE', path: casePath, repeatable: true, response: successResponse },
  withdraw: { method: 'POST', path: `${casePath}/withdraw`, repeatable: true, response: successResponse },
  runWorkflow: {
    method: 'POST',
    path: `${casePath}/run_workflow`,
    repeatable: false,
    caseScoped: true,
    response: successResponse,
  },
  file: { method: 'POST', path: `${casePath}/file`, repeatable: false, caseScoped: true, response: successResponse },
  review: { method: 'GET', path: `${casePath}/review`, repeatable: true, response: caseReviewResponse },
  list: { method: 'GET', path: '/v2/issuer/cases', repeatable: true, response: listPage(caseResponse) },
} as const;

/** /v2/issuer/cases. */
export class CasesEndpoints {
  constructor(private readonly transport: Transport) {}

  /** GET /v2/issuer/cases/{case_id}: one case, from the production service's public reference. */
  async retrieve(caseId: string) {
    return endpoint(this.transport, operations.retrieve, { params: { case_id: caseId } });
  }

  /**
   * PUT /v2/issuer/cases/{case_id}. The document does not show the response body, so whatever
   * comes back (nothing included) is accepted as it is: read the case back with `retrieve`.
   */
  async update(caseId: string, body: CaseUpdate) {
    return endpoint(this.transport, operations.update, {
      params: { case_id: caseId },
      body: jsonOf(updateCaseBody, body),
    });
  }

  /** DELETE /v2/issuer/cases/{case_id}: only while unfiled. A retried delete may answer 404. */
  async delete(caseId: string) {
    return endpoint(this.transport, operations.delete, { params: { case_id: caseId } });
  }

  /** POST .../withdraw: only in `created` or `chargeback_filed`. */
  async withdraw(caseId: string) {
    return endpoint(this.transport, operations.withdraw, { params: { case_id: caseId } });
  }

  /** POST .../run_workflow: 202 means accepted for evaluation, not filed. */
  async runWorkflow(caseId: string) {
    return endpoint(this.transport, operations.runWorkflow, { params: { case_id: caseId } });
  }

  /** POST .../file with `file_mode` (docs/sandbox.md). */
  async file(caseId: string, body: FileBody) {
    return endpoint(this.transport, operations.file, { params: { case_id: caseId }, body: jsonOf(fileBody, body) });
  }

  /** GET .../review: `processing` until the evaluation completes. */
  async review(caseId: string) {
    return endpoint(this.transport, operations.review, { params: { case_id: caseId } });
  }

  /** GET /v2/issuer/cases: one page of full cases. */
  async list(query: ListQuery = {}) {
    return endpoint(this.transport, operations.list, { query: queryOf(listQuery, query) });
  }

  listAll(start: ListQuery = {}) {
    return paginate(async (cursor) => this.list(cursor), 'case_id', start);
  }
}
