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

const claimPage = listPage(claimSummaryResponse);

/** /v2/issuer/claims and /v2/issuer/new_claim. Creates and filings are not repeatable. */
export class ClaimsEndpoints {
  constructor(private readonly transport: Transport) {}

  /** POST /v2/issuer/claims: a claim from existing cases. */
  async create(body: CreateClaimBody) {
    return endpoint(this.transport, 'POST', '/v2/issuer/claims', {
      body: jsonOf(createClaimBody, body),
      repeatable: false,
      response: claimResponse,
    });
  }

  /** POST /v2/issuer/new_claim: a claim and all its cases in one request. */
  async createWithCases(body: NewClaimBody) {
    return endpoint(this.transport, 'POST', '/v2/issuer/new_claim', {
      body: jsonOf(newClaimBody, body),
      repeatable: false,
      response: claimResponse,
    });
  }

  /**
   * POST /v2/issuer/new_claim, reading of the answer only the claim's id and its cases' ids (what
   * the import keeps): the rest of the claim, every case in full, is not checked or copied.
   */
  async createWithCasesIds(body: NewClaimBody | CheckedBody<typeof newClaimBody>) {
    return endpoint(this.transport, 'POST', '/v2/issuer/new_claim', {
      body: jsonOf(newClaimBody, body),
      repeatable: false,
      response: claimIdsResponse,
    });
  }

  /** PUT /v2/issuer/claims/{claim_id}/cases: replaces all cases; repeating it changes nothing. */
  async setCases(claimId: string, body: SetClaimCasesBody) {
    return endpoint(this.transport, 'PUT', '/v2/issuer/claims/{claim_id}/cases', {
      params: { claim_id: claimId },
      body: jsonOf(setClaimCasesBody, body),
      repeatable: true,
      response: claimResponse,
    });
  }

  /** POST /v2/issuer/claims/{claim_id}/file with `file_mode` (docs/sandbox.md). */
  async file(claimId: string, body: FileBody) {
    return endpoint(this.transport, 'POST', '/v2/issuer/claims/{claim_id}/file', {
      params: { claim_id: claimId },
      body: jsonOf(fileBody, body),
      repeatable: false,
      caseScoped: true,
      response: fileClaimResultResponse,
    });
  }

  /** POST .../withdraw. A repeat lands on "already closed" (400), never a second effect. */
  async withdraw(claimId: string) {
    return endpoint(this.transport, 'POST', '/v2/issuer/claims/{claim_id}/withdraw', {
      params: { claim_id: claimId },
      repeatable: true,
      response: successResponse,
    });
  }

  /** GET /v2/issuer/claims/{claim_id}: the claim with full cases. */
  async retrieve(claimId: string) {
    return endpoint(this.transport, 'GET', '/v2/issuer/claims/{claim_id}', {
      params: { claim_id: claimId },
      repeatable: true,
      response: claimResponse,
    });
  }

  /** GET /v2/issuer/claims: one page of simplified claims. */
  async list(query: ListQuery = {}) {
    return endpoint(this.transport, 'GET', '/v2/issuer/claims', {
      query: queryOf(listQuery, query),
      repeatable: true,
      response: claimPage,
    });
  }

  /** Every claim, page by page (see paginate.ts for the order). */
  listAll(start: ListQuery = {}) {
    return paginate(
      async (cursor) => this.list(cursor),
      (claim) => claim.claim_id,
      start,
    );
  }
}
