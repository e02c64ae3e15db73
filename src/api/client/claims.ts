import {
  claimIdsResponse,
  claimResponse,
  claimSummaryResponse,
  createClaimBody,
  fileBody,
  fileClaimResultResponse,
  newClaimBody,
  setClaimCasesBody,
  successResponse,
  type CreateClaimBody,
  type FileBody,
  type NewClaimBody,
  type SetClaimCasesBody,
} from '../schemas/claim.js';
import { listPage, listQuery, type ListQuery } from '../schemas/list.js';
import { paginate } from './paginate.js';
import { endpoint, jsonOf, queryOf, type CheckedBody } from './request-parts.js';
import type { Transport } from './transport.js';

const claimPath = '/v2/issuer/claims/{claim_id}';

/** The claims operations, one line each: creates and filings are not repeatable. */
const operations = {
  create: { method: 'POST', path: '/v2/issuer/claims', repeatable: false, response: claimResponse },
  createWithCases: { method: 'POST', path: '/v2/issuer/new_claim', repeatable: false, response: claimResponse },
  createWithCasesIds: { method: 'POST', path: '/v2/issuer/new_claim', repeatable: false, response: claimIdsResponse },
  setCases: { method: 'PUT', path: `${claimPath}/cases`, repeatable: true, response: claimResponse },
  file: {
    method: 'POST',
    path: `${claimPath}/file`,
    repeatable: false,
    caseScoped: true,
    response: fileClaimResultResponse,
  },
  withdraw: { method: 'POST', path: `${claimPath}/withdraw`, repeatable: true, response: successResponse },
  retrieve: { method: 'GET', path: claimPath, repeatable: true, response: claimResponse },
  list: { method: 'GET', path: '/v2/issuer/claims', repeatable: true, response: listPage(claimSummaryResponse) },
} as const;

/** /v2/issuer/claims and /v2/issuer/new_claim. */
export class ClaimsEndpoints {
  constructor(private readonly transport: Transport) {}

  /** POST /v2/issuer/claims: a claim from existing cases. */
  async create(body: CreateClaimBody) {
    return endpoint(this.transport, operations.create, { body: jsonOf(createClaimBody, body) });
  }

  /** POST /v2/issuer/new_claim: a claim and all its cases in one request. */
  async createWithCases(body: NewClaimBody) {
    return endpoint(this.transport, operations.createWithCases, { body: jsonOf(newClaimBody, body) });
  }

  /**
   * POST /v2/issuer/new_claim, reading of the answer only the claim's id and its cases' ids (what
   * the import keeps): the rest of the claim, every case in full, is not checked or copied.
   */
  async createWithCasesIds(body: NewClaimBody | CheckedBody<typeof newClaimBody>) {
    return endpoint(this.transport, operations.createWithCasesIds, { body: jsonOf(newClaimBody, body) });
  }

  /** PUT /v2/issuer/claims/{claim_id}/cases: replaces all cases; repeating it changes nothing. */
  async setCases(claimId: string, body: SetClaimCasesBody) {
    const parts = { params: { claim_id: claimId }, body: jsonOf(setClaimCasesBody, body) };
    return endpoint(this.transport, operations.setCases, parts);
  }

  /** POST /v2/issuer/claims/{claim_id}/file with `file_mode` (docs/sandbox.md). */
  async file(claimId: string, body: FileBody) {
    return endpoint(this.transport, operations.file, { params: { claim_id: claimId }, body: jsonOf(fileBody, body) });
  }

  /** POST .../withdraw. A repeat lands on "already closed" (400), never a second effect. */
  async withdraw(claimId: string) {
    return endpoint(this.transport, operations.withdraw, { params: { claim_id: claimId } });
  }

  /** GET /v2/issuer/claims/{claim_id}: the claim with full cases. */
  async retrieve(claimId: string) {
    return endpoint(this.transport, operations.retrieve, { params: { claim_id: claimId } });
  }

  /** GET /v2/issuer/claims: one page of simplified claims. */
  async list(query: ListQuery = {}) {
    return endpoint(this.transport, operations.list, { query: queryOf(listQuery, query) });
  }

  /** Every claim, page by page (see paginate.ts for the order). */
  listAll(start: ListQuery = {}) {
    return paginate(async (cursor) => this.list(cursor), 'claim_id', start);
  }
}
