import { listPage } from '../schemas/list.js';
import {
  v1CaseResponse,
  v1CreateCaseBody,
  v1ListQuery,
  type V1CreateCaseBody,
  type V1ListQuery,
} from '../schemas/v1.js';
import { paginate } from './paginate.js';
import { checked, jsonBody } from './request-parts.js';
import type { Transport } from './transport.js';

const v1CasePage = listPage(v1CaseResponse);

/** /v1/issuer/cases: create one case, list cases: the version 1 endpoints, for migration. */
export class V1CasesEndpoints {
  constructor(private readonly transport: Transport) {}

  async create(body: V1CreateCaseBody) {
    const route = { method: 'POST', path: '/v1/issuer/cases' } as const;
    return this.transport.send({
      ...route,
      body: jsonBody(v1CreateCaseBody, body, route),
      repeatable: false,
      response: v1CaseResponse,
    });
  }

  async list(query: V1ListQuery = {}) {
    const route = { method: 'GET', path: '/v1/issuer/cases' } as const;
    return this.transport.send({
      ...route,
      query: checked(v1ListQuery, query, route),
      repeatable: true,
      response: v1CasePage,
    });
  }

  /** Every v1 case; `status` filters, the cursors work as in paginate.ts. */
  listAll(start: V1ListQuery = {}) {
    const { status, ...cursor } = start;
    return paginate(
      async (page) => this.list({ ...page, status }),
      (record) => record.case_id,
      cursor,
    );
  }
}
