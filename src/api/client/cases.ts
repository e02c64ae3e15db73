import { caseResponse, updateCaseBody, type CaseUpdate } from '../schemas/case.js';
import { fileBody, successResponse, type FileBody } from '../schemas/claim.js';
import { listPage, listQuery, type ListQuery } from '../schemas/list.js';
import { caseReviewResponse } from '../schemas/resources.js';
import { paginate } from './paginate.js';
import { checked, idSegment, jsonBody, type Route } from './request-parts.js';
import type { Transport } from './transport.js';

const casePage = listPage(caseResponse);

/** /v2/issuer/cases. Filing and run_workflow are not repeatable; the rest is. */
export class CasesEndpoints {
  constructor(private readonly transport: Transport) {}

  /** GET /v2/issuer/cases/{case_id} (service-notes.md, "Retrieve claim"). */
  async retrieve(caseId: string) {
    const { method, path } = this.casePath('GET', '', caseId);
    return this.transport.send({ method, path, repeatable: true, response: caseResponse });
  }

  /** PUT /v2/issuer/cases/{case_id}. The response body is not shown: read back the case. */
  async update(caseId: string, body: CaseUpdate) {
    const route = this.casePath('PUT', '', caseId);
    return this.transport.send({ ...route, body: jsonBody(updateCaseBody, body, route), repeatable: true, response: caseResponse });
  }

  /** DELETE /v2/issuer/cases/{case_id}: only while unfiled. A retried delete may answer 404. */
  async delete(caseId: string) {
    return this.transport.send({ ...this.casePath('DELETE', '', caseId), repeatable: true, response: successResponse });
  }

  /** POST /v2/issuer/cases/{case_id}/withdraw: only in `created` or `chargeback_filed`. */
  async withdraw(caseId: string) {
    return this.transport.send({ ...this.casePath('POST', '/withdraw', caseId), repeatable: true, response: successResponse });
  }

  /** POST /v2/issuer/cases/{case_id}/run_workflow: 202 means accepted for evaluation, not filed. */
  async runWorkflow(caseId: string) {
    return this.transport.send({ ...this.casePath('POST', '/run_workflow', caseId), repeatable: false, response: successResponse });
  }

  /** POST /v2/issuer/cases/{case_id}/file with `file_mode` (service-notes.md). */
  async file(caseId: string, body: FileBody) {
    const route = this.casePath('POST', '/file', caseId);
    return this.transport.send({ ...route, body: jsonBody(fileBody, body, route), repeatable: false, response: successResponse });
  }

  /** GET /v2/issuer/cases/{case_id}/review: `processing` until the evaluation completes. */
  async review(caseId: string) {
    return this.transport.send({ ...this.casePath('GET', '/review', caseId), repeatable: true, response: caseReviewResponse });
  }

  /** GET /v2/issuer/cases: one page of full cases. */
  async list(query: ListQuery = {}) {
    const route = { method: 'GET', path: '/v2/issuer/cases' } as const;
    return this.transport.send({ ...route, query: checked(listQuery, query, route), repeatable: true, response: casePage });
  }

  listAll(start: ListQuery = {}) {
    return paginate(async (cursor) => this.list(cursor), (record) => record.case_id, start);
  }

  private casePath(method: Route['method'], suffix: string, caseId: string): Route {
    const template = { method, path: `/v2/issuer/cases/{case_id}${suffix}` };
    return { method, path: `/v2/issuer/cases/${idSegment('case_id', caseId, template)}${suffix}` };
  }
}
