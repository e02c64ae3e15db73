import { decided, publicReference, type Metadata } from './provenance.js';

/**
 * Every path and method of version 2 and version 1 that the sandbox serves
 * (src/sandbox/route-table.ts, without the `/_sandbox` control prefix, which is not the
 * service's): what each takes and every answer it can give. The schemas are named components
 * (components.ts); the error answers are shared responses (responses.ts).
 */

export type Method = 'get' | 'post' | 'put' | 'delete';
export type Tag = 'Claims' | 'Cases' | 'Files' | 'Events' | 'Version 1';

/**
 * An error answer an operation can give besides those every operation can (401, 429, 500, 503).
 * `400` names the shapes: the validation shape for a body, query or path that does not match,
 * the simple one for a refusal by state, as the service's known error cases do.
 */
export type ErrorAnswer =
  'BadRequest' | 'ValidationFailed' | 'NotFound' | 'Conflict' | 'PayloadTooLarge' | 'CaseUnavailable';

export interface Operation {
  method: Method;
  path: string;
  operationId: string;
  tag: Tag;
  summary: string;
  /** The description, with its provenance when not the service's own word (docs/openapi.md). */
  about: Metadata;
  /** `list`: limit and cursors; `v1-list`: those and a status filter. */
  query?: 'list' | 'v1-list';
  /** A JSON body of this component, or the multipart upload. */
  body?: { schema: string } | 'upload';
  success: { status: 200 | 201 | 202; schema: string; about: Metadata };
  errors: ErrorAnswer[];
}

const said = (description: string): Metadata => ({ description });
const created = (what: string) =>
  decided(`The ${what}, created.`, 'The success status is not shown: the sandbox answers 201 for every create.');
const ok = (what: string) => decided(what, 'The success status is not shown: the sandbox answers 200.');
const byId = ['BadRequest', 'NotFound'] as const satisfies readonly ErrorAnswer[];
const withJsonBody = ['BadRequest', 'NotFound', 'PayloadTooLarge'] as const satisfies readonly ErrorAnswer[];

export const operations: Operation[] = [
  {
    method: 'post',
    path: '/v2/issuer/claims',
    operationId: 'createClaim',
    tag: 'Claims',
    summary: 'Create a claim from existing cases',
    about: said('Creates a claim from existing cases. `claim_id` is generated when omitted.'),
    body: { schema: 'CreateClaim' },
    success: { status: 201, schema: 'Claim', about: created('claim, with `cases` as objects holding only `case_id`') },
    errors: ['ValidationFailed', 'Conflict', 'PayloadTooLarge'],
  },
  {
    method: 'get',
    path: '/v2/issuer/claims',
    operationId: 'listClaims',
    tag: 'Claims',
    summary: 'List claims (simplified)',
    about: said('Lists claims, newest first, simplified.'),
    query: 'list',
    success: { status: 200, schema: 'ClaimList', about: ok('A page of claims.') },
    errors: ['ValidationFailed'],
  },
  {
    method: 'get',
    path: '/v2/issuer/claims/{claim_id}',
    operationId: 'retrieveClaim',
    tag: 'Claims',
    summary: 'Retrieve a claim with its cases',
    about: publicReference(
      'Returns the claim with full case objects. The interface document names a retrieve endpoint without its path.',
    ),
    success: { status: 200, schema: 'Claim', about: ok('The claim with full cases.') },
    errors: [...byId],
  },
  {
    method: 'put',
    path: '/v2/issuer/claims/{claim_id}/cases',
    operationId: 'setClaimCases',
    tag: 'Claims',
    summary: 'Replace the cases of a claim',
    about: decided(
      'Replaces all cases of the claim with the given list.',
      "A case belongs to one claim at a time (409 otherwise); a filed or closed case cannot leave its claim and a closed claim's cases cannot change (400).",
    ),
    body: { schema: 'SetClaimCases' },
    success: {
      status: 200,
      schema: 'Claim',
      about: ok('The claim id and its cases, as objects holding only `case_id`.'),
    },
    errors: [...withJsonBody, 'Conflict'],
  },
  {
    method: 'post',
    path: '/v2/issuer/claims/{claim_id}/file',
    operationId: 'fileClaim',
    tag: 'Claims',
    summary: 'File each case of a claim',
    about: said(
      'Files each case of the claim to the card network; a case that fails validation is reported and not filed.',
    ),
    body: { schema: 'FileRequest' },
    success: { status: 202, schema: 'FileClaimResult', about: said('Accepted: one result per case.') },
    errors: [...withJsonBody],
  },
  {
    method: 'post',
    path: '/v2/issuer/claims/{claim_id}/withdraw',
    operationId: 'withdrawClaim',
    tag: 'Claims',
    summary: 'Withdraw every case of a claim',
    about: said(
      'Withdraws all cases of the claim: unfiled cases close, filed cases are lost, both with ' +
        '`closed_reason: withdrawn`. No body. 400 when the claim is already closed.',
    ),
    success: { status: 202, schema: 'Success', about: said('Accepted, `success: true`.') },
    errors: [...byId],
  },
  {
    method: 'post',
    path: '/v2/issuer/new_claim',
    operationId: 'newClaim',
    tag: 'Claims',
    summary: 'Create a claim and all its cases',
    about: said(
      'Creates a claim and all its cases in one request; each returned case carries the shared fields, and its `transaction` the shared card.',
    ),
    body: { schema: 'NewClaim' },
    success: { status: 201, schema: 'Claim', about: created('claim, with full cases') },
    errors: ['ValidationFailed', 'Conflict', 'PayloadTooLarge'],
  },
  {
    method: 'get',
    path: '/v2/issuer/cases',
    operationId: 'listCases',
    tag: 'Cases',
    summary: 'List cases',
    about: publicReference(
      "Lists cases, newest first. The query parameters are the public reference's common pagination.",
    ),
    query: 'list',
    success: { status: 200, schema: 'CaseList', about: ok('A page of full cases.') },
    errors: ['ValidationFailed'],
  },
  {
    method: 'get',
    path: '/v2/issuer/cases/{case_id}',
    operationId: 'retrieveCase',
    tag: 'Cases',
    summary: 'Retrieve a case',
    about: publicReference('Returns one case; a version 1 case is shown in the version 2 shape.'),
    success: { status: 200, schema: 'Case', about: ok('The case.') },
    errors: [...byId],
  },
  {
    method: 'put',
    path: '/v2/issuer/cases/{case_id}',
    operationId: 'updateCase',
    tag: 'Cases',
    summary: 'Update a case',
    about: decided(
      'Updates a case that is neither filed nor closed.',
      'The response body is not shown: the sandbox answers the updated case. Version 1 cases are not updated through version 2 (400).',
    ),
    body: { schema: 'CaseUpdate' },
    success: { status: 200, schema: 'Case', about: ok('The updated case.') },
    errors: [...withJsonBody],
  },
  {
    method: 'delete',
    path: '/v2/issuer/cases/{case_id}',
    operationId: 'deleteCase',
    tag: 'Cases',
    summary: 'Delete an unfiled case',
    about: said('Deletes a case. 400 when the case has been filed with the card network.'),
    success: { status: 200, schema: 'Success', about: ok('`success: true`.') },
    errors: [...byId],
  },
  {
    method: 'post',
    path: '/v2/issuer/cases/{case_id}/withdraw',
    operationId: 'withdrawCase',
    tag: 'Cases',
    summary: 'Withdraw a case',
    about: decided(
      'Withdraws a case, allowed only in `created` or `chargeback_filed`. No body. 400 when the case is already closed.',
      'The next state is not shown: a `created` case becomes `closed`, a `chargeback_filed` one `lost`, ' +
        'both with `closed_reason: withdrawn`, as a claim withdrawal does.',
    ),
    success: {
      status: 202,
      schema: 'Success',
      about: decided('`success: true`.', 'The success status is not shown: the sandbox answers 202, as for a claim.'),
    },
    errors: [...byId],
  },
  {
    method: 'post',
    path: '/v2/issuer/cases/{case_id}/run_workflow',
    operationId: 'runWorkflow',
    tag: 'Cases',
    summary: 'Evaluate the workflow rules for a case',
    about: said(
      "Evaluates the issuer's workflow rules for the case. No body. 202 does not mean the case was filed: read the review.",
    ),
    success: { status: 202, schema: 'Success', about: said('Accepted for evaluation.') },
    errors: [...byId, 'CaseUnavailable'],
  },
  {
    method: 'post',
    path: '/v2/issuer/cases/{case_id}/file',
    operationId: 'fileCase',
    tag: 'Cases',
    summary: 'File one case',
    about: publicReference('Files one case, as filing its claim would.'),
    body: { schema: 'FileRequest' },
    success: {
      status: 202,
      schema: 'Success',
      about: publicReference('Accepted: `success` says whether the case was filed.'),
    },
    errors: [...withJsonBody],
  },
  {
    method: 'get',
    path: '/v2/issuer/cases/{case_id}/review',
    operationId: 'reviewCase',
    tag: 'Cases',
    summary: 'Review a case',
    about: said(
      'Returns the case review result: `processing` while the data is incomplete, `complete` with the full data.',
    ),
    success: { status: 200, schema: 'CaseReview', about: ok('The review.') },
    errors: [...byId],
  },
  {
    method: 'post',
    path: '/v2/issuer/files',
    operationId: 'uploadFile',
    tag: 'Files',
    summary: 'Upload an evidence file',
    about: said(
      'Uploads a file for use as case documentation: JPEG, PNG or PDF (by content), under 4.5 MB, a PDF at most 5 pages.',
    ),
    body: 'upload',
    success: { status: 200, schema: 'File', about: said('The stored file.') },
    errors: ['ValidationFailed'],
  },
  {
    method: 'get',
    path: '/v2/issuer/events',
    operationId: 'listEvents',
    tag: 'Events',
    summary: 'List events',
    about: publicReference(
      'Lists events for the account, newest first. The document says one integer parameter has range 1 to 100 without its name: it is `limit`.',
    ),
    query: 'list',
    success: { status: 200, schema: 'EventList', about: ok('A page of events.') },
    errors: ['ValidationFailed'],
  },
  {
    method: 'post',
    path: '/v1/issuer/cases',
    operationId: 'createV1Case',
    tag: 'Version 1',
    summary: 'Create a version 1 case',
    about: said('Creates one case without a claim (version 1).'),
    body: { schema: 'V1CreateCase' },
    success: { status: 201, schema: 'V1Case', about: created('version 1 case') },
    errors: ['ValidationFailed', 'Conflict', 'PayloadTooLarge'],
  },
  {
    method: 'get',
    path: '/v1/issuer/cases',
    operationId: 'listV1Cases',
    tag: 'Version 1',
    summary: 'List version 1 cases',
    about: said('Lists the cases created through version 1, newest first.'),
    query: 'v1-list',
    success: { status: 200, schema: 'V1CaseList', about: ok('A page of version 1 cases.') },
    errors: ['ValidationFailed'],
  },
];
