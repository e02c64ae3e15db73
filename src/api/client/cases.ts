import { z } from 'zod';
import { caseResponse, updateCaseBody, type CaseUpdate } from '../schemas/case.js';
import { fileBody, successResponse, type FileBody } from '../schemas/claim.js';
import { listPage, listQuery, type ListQuery } from '../schemas/list.js';
import { caseReviewResponse } from '../schemas/resources.js';
import { paginate } from './paginate.js';
import { checked, jsonBody, routeFor } from './request-parts.js';
import type { Transport } from './transport.js';

const casePage = listPage(caseResponse);
const casePath = '/v2/issuer/cases/{case_id}';

/** /v2/issuer/cases. Filing and run_workflow are not repeatable; the rest is. */
export class CasesEndpoints {
  constructor(private readonly transport: Transport) {}

  /** GET /v2/issuer/cases/{case_id}: one case, from the production service's public reference. */
  async retrieve(caseId: string) {
    return this.transport.send({
      ...routeFor('GET', casePath, { case_id: caseId }),
      repeatable: true,
      response: caseResponse,
    });
  }

  /**
   * PUT /v2/issuer/cases/{case_id}. The document does not show the response body, so whatever
   * comes back (nothing included) is accepted as it is: read the case back with `retrieve`.
   */
  async update(caseId: string, body: CaseUpdate) {
    const route = routeFor('PUT', casePath, { case_id: caseId });
    return this.transport.send({
      ...route,
      body: jsonBody(updateCaseBody, body, route),
      repeatable: true,
      response: z.unknown(),
    });
  }

  /** DELETE /v2/issuer/cases/{case_id}: only while unfiled. A retried delete may answer 404. */
  async delete(caseId: string) {
    return this.transport.send({
      ...routeFor('DELETE', casePath, { case_id: caseId }),
      repeatable: true,
      response: successResponse,
    });
  }

  /** POST .../withdraw: only in `created` or `chargeback_filed`. */
  async withdraw(caseId: string) {
    const route = routeFor('POST', `${casePath}/withdraw`, { case_id: caseId });
    return this.transport.send({ ...route, repeatable: true, response: successResponse });
  }

  /** POST .../run_workflow: 202 means accepted for evaluation, not filed. */
  async runWorkflow(caseId: string) {
    const route = routeFor('POST', `${casePath}/run_workflow`, { case_id: caseId });
    return this.transport.send({ ...route, repeatable: false, caseScoped: true, response: successResponse });
  }

  /** POST .../file with `file_mode` (docs/sandbox.md). */
  async file(caseId: string, body: FileBody) {
    const route = routeFor('POST', `${casePath}/file`, { case_id: caseId });
    return this.transport.send({
      ...route,
      body: jsonBody(fileBody, body, route),
      repeatable: false,
      caseScoped: true,
      response: successResponse,
    });
  }

  /** GET .../review: `processing` until the evaluation completes. */
  async review(caseId: string) {
    const route = routeFor('GET', `${casePath}/review`, { case_id: caseId });
    return this.transport.send({ ...route, repeatable: true, response: caseReviewResponse });
  }

  /** GET /v2/issuer/cases: one page of full cases. */
  async list(query: ListQuery = {}) {
    const route = routeFor('GET', '/v2/issuer/cases');
    return this.transport.send({
      ...route,
      query: checked(listQuery, query, route),
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
