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

/** The first columns of the table: where an operation is, its id and its tag. */
const route = (method: Method, path: string, operationId: string, tag: Tag) => ({ method, path, operationId, tag });

/** A create: a JSON body of one component, 201 with the created one, refused when invalid, taken or too large. */
const creates = (body: string, schema: string, what: string): Pick<Operation, 'body' | 'success' | 'errors'> => ({
  body: { schema: body },
  success: { status: 201, schema, about: created(what) },
  errors: ['ValidationFailed', 'Conflict', 'PayloadTooLarge'],
});

/** A page of a list, newest first: 400 for a query that does not match. */
const lists = (
  schema: string,
  what: string,
  query: Operation['query'] = 'list',
): Pick<Operation, 'query' | 'success' | 'errors'> => ({
  query,
  success: { status: 200, schema, about: ok(`A page of ${what}.`) },
  errors: ['ValidationFailed'],
});

/** The success answer: its status, the component it holds and what it says. */
const answer = (status: Operation['success']['status'], schema: string, about: Metadata) => ({ status, schema, about });

/** On one resource by its id, no body: 400 or 404 besides `more`. */
const onId = (success: Operation['success'], ...more: ErrorAnswer[]): Pick<Operation, 'success' | 'errors'> => ({
  success,
  errors: [...byId, ...more],
});

/** With a JSON body of one component: 400, 404 or 413 besides `more`. */
const withJson = (
  body: string,
  success: Operation['success'],
  ...more: ErrorAnswer[]
): Pick<Operation, 'body' | 'success' | 'errors'> => ({
  body: { schema: body },
  success,
  errors: [...withJsonBody, ...more],
});

export const operations: Operation[] = [
  {
    ...route('post', '/v2/issuer/claims', 'createClaim', 'Claims'),
    summary: 'Create a claim from existing cases',
    about: said('Creates a claim from existing cases. `claim_id` is generated when omitted.'),
    ...creates('CreateClaim', 'Claim', 'claim, with `cases` as objects holding only `case_id`'),
  },
  {
    ...route('get', '/v2/issuer/claims', 'listClaims', 'Claims'),
    summary: 'List claims (simplified)',
    about: said('Lists claims, newest first, simplified.'),
    ...lists('ClaimList', 'claims'),
  },
  {
    ...route('get', '/v2/issuer/claims/{claim_id}', 'retrieveClaim', 'Claims'),
    summary: 'Retrieve a claim with its cases',
    about: publicReference(
      'Returns the claim with full case objects. The interface document names a retrieve endpoint without its path.',
    ),
    ...onId(answer(200, 'Claim', ok('The claim with full cases.'))),
  },
  {
    ...route('put', '/v2/issuer/claims/{claim_id}/cases', 'setClaimCases', 'Claims'),
    summary: 'Replace the cases of a claim',
    about: decided(
      'Replaces all cases of the claim with the given list.',
      "A case belongs to one claim at a time (409 otherwise); a filed or closed case cannot leave its claim and a closed claim's cases cannot change (400).",
    ),
    ...withJson(
      'SetClaimCases',
      answer(200, 'Claim', ok('The claim id and its cases, as objects holding only `case_id`.')),
      'Conflict',
    ),
  },
  {
    ...route('post', '/v2/issuer/claims/{claim_id}/file', 'fileClaim', 'Claims'),
    summary: 'File each case of a claim',
    about: said(
      'Files each case of the claim to the card network; a case that fails validation is reported and not filed.',
    ),
    ...withJson('FileRequest', answer(202, 'FileClaimResult', said('Accepted: one result per case.'))),
  },
  {
    ...route('post', '/v2/issuer/claims/{claim_id}/withdraw', 'withdrawClaim', 'Claims'),
    summary: 'Withdraw every case of a claim',
    about: said(
      'Withdraws all cases of the claim: unfiled cases close, filed cases are lost, both with ' +
        '`closed_reason: withdrawn`. No body. 400 when the claim is already closed.',
    ),
    ...onId(answer(202, 'Success', said('Accepted, `success: true`.'))),
  },
  {
    ...route('post', '/v2/issuer/new_claim', 'newClaim', 'Claims'),
    summary: 'Create a claim and all its cases',
    about: said(
      'Creates a claim and all its cases in one request; each returned case carries the shared fields, and its `transaction` the shared card.',
    ),
    ...creates('NewClaim', 'Claim', 'claim, with full cases'),
  },
  {
    ...route('get', '/v2/issuer/cases', 'listCases', 'Cases'),
    summary: 'List cases',
    about: publicReference(
      "Lists cases, newest first. The query parameters are the public reference's common pagination.",
    ),
    ...lists('CaseList', 'full cases'),
  },
  {
    ...route('get', '/v2/issuer/cases/{case_id}', 'retrieveCase', 'Cases'),
    summary: 'Retrieve a case',
    about: publicReference('Returns one case; a version 1 case is shown in the version 2 shape.'),
    ...onId(answer(200, 'Case', ok('The case.'))),
  },
  {
    ...route('put', '/v2/issuer/cases/{case_id}', 'updateCase', 'Cases'),
    summary: 'Update a case',
    about: decided(
      'Updates a case that is neither filed nor closed.',
      'The response body is not shown: the sandbox answers the updated case. Version 1 cases are not updated through version 2 (400).',
    ),
    ...withJson('CaseUpdate', answer(200, 'Case', ok('The updated case.'))),
  },
  {
    ...route('delete', '/v2/issuer/cases/{case_id}', 'deleteCase', 'Cases'),
    summary: 'Delete an unfiled case',
    about: said('Deletes a case. 400 when the case has been filed with the card network.'),
    ...onId(answer(200, 'Success', ok('`success: true`.'))),
  },
  {
    ...route('post', '/v2/issuer/cases/{case_id}/withdraw', 'withdrawCase', 'Cases'),
    summary: 'Withdraw a case',
    about: decided(
      'Withdraws a case, allowed only in `created` or `chargeback_filed`. No body. 400 when the case is already closed.',
      'The next state is not shown: a `created` case becomes `closed`, a `chargeback_filed` one `lost`, ' +
        'both with `closed_reason: withdrawn`, as a claim withdrawal does.',
    ),
    ...onId(
      answer(
        202,
        'Success',
        decided('`success: true`.', 'The success status is not shown: the sandbox answers 202, as for a claim.'),
      ),
    ),
  },
  {
    ...route('post', '/v2/issuer/cases/{case_id}/run_workflow', 'runWorkflow', 'Cases'),
    summary: 'Evaluate the workflow rules for a case',
    about: said(
      "Evaluates the issuer's workflow rules for the case. No body. 202 does not mean the case was filed: read the review.",
    ),
    ...onId(answer(202, 'Success', said('Accepted for evaluation.')), 'CaseUnavailable'),
  },
  {
    ...route('post', '/v2/issuer/cases/{case_id}/file', 'fileCase', 'Cases'),
    summary: 'File one case',
    about: publicReference('Files one case, as filing its claim would.'),
    ...withJson(
      'FileRequest',
      answer(202, 'Success', publicReference('Accepted: `success` says whether the case was filed.')),
    ),
  },
  {
    ...route('get', '/v2/issuer/cases/{case_id}/review', 'reviewCase', 'Cases'),
    summary: 'Review a case',
    about: said(
      'Returns the case review result: `processing` while the data is incomplete, `complete` with the full data.',
    ),
    ...onId(answer(200, 'CaseReview', ok('The review.'))),
  },
  {
    ...route('post', '/v2/issuer/files', 'uploadFile', 'Files'),
    summary: 'Upload an evidence file',
    about: said(
      'Uploads a file for use as case documentation: JPEG, PNG or PDF (by content), under 4.5 MB, a PDF at most 5 pages.',
    ),
    body: 'upload',
    success: { status: 200, schema: 'File', about: said('The stored file.') },
    errors: ['ValidationFailed'],
  },
  {
    ...route('get', '/v2/issuer/events', 'listEvents', 'Events'),
    summary: 'List events',
    about: publicReference(
      'Lists events for the account, newest first. The document says one integer parameter has range 1 to 100 without its name: it is `limit`.',
    ),
    ...lists('EventList', 'events'),
  },
  {
    ...route('post', '/v1/issuer/cases', 'createV1Case', 'Version 1'),
    summary: 'Create a version 1 case',
    about: said('Creates one case without a claim (version 1).'),
    ...creates('V1CreateCase', 'V1Case', 'version 1 case'),
  },
  {
    ...route('get', '/v1/issuer/cases', 'listV1Cases', 'Version 1'),
    summary: 'List version 1 cases',
    about: said('Lists the cases created through version 1, newest first.'),
    ...lists('V1CaseList', 'version 1 cases', 'v1-list'),
  },
];
