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

const operations = {
  create: { method: 'POST', path: '/v1/issuer/cases', repeatable: false, response: v1CaseResponse },
  list: { method: 'GET', path: '/v1/issuer/cases', repeatable: true, response: listPage(v1CaseResponse) },
} as const;

/** /v1/issuer/cases: create one case, list cases: the version 1 endpoints, for migration. */
export class V1CasesEndpoints {
  constructor(private readonly transport: Transport) {}

  async create(body: V1CreateCaseBody) {
    return endpoint(this.transport, operations.create, { body: jsonOf(v1CreateCaseBody, body) });
  }

  async list(query: V1ListQuery = {}) {
    return endpoint(this.transport, operations.list, { query: queryOf(v1ListQuery, query) });
  }

  /** Every v1 case; `status` filters, the cursors work as in paginate.ts. */
  listAll(start: V1ListQuery = {}) {
    const { status, ...cursor } = start;
    return paginate(async (page) => this.list({ ...page, status }), 'case_id', cursor);
  }
}
