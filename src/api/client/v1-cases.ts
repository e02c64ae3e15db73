import { listPage } from '../schemas/list.js';
import {
  v1CaseResponse,
  v1CreateCaseBody,
  v1ListQuery,
  type V1CreateCaseBody,
  type V1ListQuery,
} from '../schemas/v1.js';
import { paginate } from './paginate.js';
import { endpoint, jsonOf, queryOf } from './request-parts.js';
import type { Transport } from './transport.js';

const v1CasePage = listPage(v1CaseResponse);

/** /v1/issuer/cases: create one case, list cases: the version 1 endpoints, for migration. */
export class V1CasesEndpoints {
  constructor(private readonly transport: Transport) {}

  async create(body: V1CreateCaseBody) {
    return endpoint(this.transport, 'POST', '/v1/issuer/cases', {
      body: jsonOf(v1CreateCaseBody, body),
      repeatable: false,
      response: v1CaseResponse,
    });
  }

  async list(query: V1ListQuery = {}) {
    return endpoint(this.transport, 'GET', '/v1/issuer/cases', {
      query: queryOf(v1ListQuery, query),
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
