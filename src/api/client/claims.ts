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
import { checked, jsonBody, routeFor, type CheckedBody } from './request-parts.js';
import type { Transport } from './transport.js';

const claimPage = listPage(claimSummaryResponse);

/** /v2/issuer/claims and /v2/issuer/new_claim. Creates and filings are not repeatable. */
export class ClaimsEndpoints {
  constructor(private readonly transport: Transport) {}

  /** POST /v2/issuer/claims: a claim from existing cases. */
  async create(body: CreateClaimBody) {
    const route = routeFor('POST', '/v2/issuer/claims');
    return this.transport.send({
      ...route,
      body: jsonBody(createClaimBody, body, route),
      repeatable: false,
      response: claimResponse,
    });
  }

  /** POST /v2/issuer/new_claim: a claim and all its cases in one request. */
  async createWithCases(body: NewClaimBody) {
    const route = routeFor('POST', '/v2/issuer/new_claim');
    return this.transport.send({
      ...route,
      body: jsonBody(newClaimBody, body, route),
      repeatable: false,
      response: claimResponse,
    });
  }

  /**
   * POST /v2/issuer/new_claim, reading of the answer only the claim's id and its cases' ids (what
   * the import keeps): the rest of the claim, every case in full, is not checked or copied.
   */
  async createWithCasesIds(body: NewClaimBody | CheckedBody<typeof newClaimBody>) {
    const route = routeFor('POST', '/v2/issuer/new_claim');
    return this.transport.send({
      ...route,
      body: jsonBody(newClaimBody, body, route),
      repeatable: false,
      response: claimIdsResponse,
    });
  }

  /** PUT /v2/issuer/claims/{claim_id}/cases: replaces all cases; repeating it changes nothing. */
  async setCases(claimId: string, body: SetClaimCasesBody) {
    const route = routeFor('PUT', '/v2/issuer/claims/{claim_id}/cases', { claim_id: claimId });
    return this.transport.send({
      ...route,
      body: jsonBody(setClaimCasesBody, body, route),
      repeatable: true,
      response: claimResponse,
    });
  }

  /** POST /v2/issuer/claims/{claim_id}/file with `file_mode` (docs/sandbox.md). */
  async file(claimId: string, body: FileBody) {
    const route = routeFor('POST', '/v2/issuer/claims/{claim_id}/file', { claim_id: claimId });
    return this.transport.send({
      ...route,
      body: jsonBody(fileBody, body, route),
      repeatable: false,
      caseScoped: true,
      response: fileClaimResultResponse,
    });
  }

  /** POST .../withdraw. A repeat lands on "already closed" (400), never a second effect. */
  async withdraw(claimId: string) {
    const route = routeFor('POST', '/v2/issuer/claims/{claim_id}/withdraw', { claim_id: claimId });
    return this.transport.send({ ...route, repeatable: true, response: successResponse });
  }

  /** GET /v2/issuer/claims/{claim_id}: the claim with full cases. */
  async retrieve(claimId: string) {
    const route = routeFor('GET', '/v2/issuer/claims/{claim_id}', { claim_id: claimId });
    return this.transport.send({ ...route, repeatable: true, response: claimResponse });
  }

  /** GET /v2/issuer/claims: one page of simplified claims. */
  async list(query: ListQuery = {}) {
    const route = routeFor('GET', '/v2/issuer/claims');
    return this.transport.send({
      ...route,
      query: checked(listQuery, query, route),
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
