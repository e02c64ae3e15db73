import {
  deleteCase,
  fileCase,
  listCases,
  retrieveCase,
  reviewCase,
  runWorkflow,
  updateCase,
  withdrawCaseHandler,
} from './handlers/cases.js';
import {
  createClaim,
  fileClaim,
  listClaims,
  newClaim,
  retrieveClaim,
  setClaimCases,
  withdrawClaim,
} from './handlers/claims.js';
import { uploadFile } from './handlers/files.js';
import { advanceCase, moveClock, resetEnvironment, setCaseUnavailable } from './handlers/control.js';
import { listEvents } from './handlers/events.js';
import { getFaults, setFaults } from './handlers/faults-control.js';
import { createV1Case, listV1Cases } from './handlers/v1-cases.js';
import type { Route } from './http/routes.js';

/**
 * Every endpoint of the service (v2 and v1), retrieve claim, retrieve case and file case included,
 * plus the control prefix. Every route requires a valid key and refuses web pages of other origins;
 * every write but the upload takes JSON or no body (handle-request.ts).
 */
export const routes: Route[] = [
  { method: 'POST', pattern: '/v2/issuer/claims', handler: createClaim },
  { method: 'GET', pattern: '/v2/issuer/claims', handler: listClaims },
  { method: 'GET', pattern: '/v2/issuer/claims/{claim_id}', handler: retrieveClaim },
  { method: 'PUT', pattern: '/v2/issuer/claims/{claim_id}/cases', handler: setClaimCases },
  { method: 'POST', pattern: '/v2/issuer/claims/{claim_id}/file', handler: fileClaim },
  { method: 'POST', pattern: '/v2/issuer/claims/{claim_id}/withdraw', handler: withdrawClaim },
  { method: 'POST', pattern: '/v2/issuer/new_claim', handler: newClaim },
  { method: 'GET', pattern: '/v2/issuer/cases', handler: listCases },
  { method: 'GET', pattern: '/v2/issuer/cases/{case_id}', handler: retrieveCase },
  { method: 'PUT', pattern: '/v2/issuer/cases/{case_id}', handler: updateCase },
  { method: 'DELETE', pattern: '/v2/issuer/cases/{case_id}', handler: deleteCase },
  { method: 'POST', pattern: '/v2/issuer/cases/{case_id}/withdraw', handler: withdrawCaseHandler },
  { method: 'POST', pattern: '/v2/issuer/cases/{case_id}/run_workflow', handler: runWorkflow },
  { method: 'POST', pattern: '/v2/issuer/cases/{case_id}/file', handler: fileCase },
  { method: 'GET', pattern: '/v2/issuer/cases/{case_id}/review', handler: reviewCase },
  { method: 'POST', pattern: '/v2/issuer/files', handler: uploadFile, body: 'multipart' },
  { method: 'GET', pattern: '/v2/issuer/events', handler: listEvents },
  { method: 'POST', pattern: '/v1/issuer/cases', handler: createV1Case },
  { method: 'GET', pattern: '/v1/issuer/cases', handler: listV1Cases },
  { method: 'POST', pattern: '/_sandbox/cases/{case_id}/unavailable', handler: setCaseUnavailable, control: true },
  { method: 'POST', pattern: '/_sandbox/cases/{case_id}/advance', handler: advanceCase, control: true },
  { method: 'GET', pattern: '/_sandbox/clock', handler: moveClock, control: true },
  { method: 'POST', pattern: '/_sandbox/clock', handler: moveClock, control: true },
  { method: 'POST', pattern: '/_sandbox/reset', handler: resetEnvironment, control: true },
  { method: 'GET', pattern: '/_sandbox/faults', handler: getFaults, control: true },
  { method: 'POST', pattern: '/_sandbox/faults', handler: setFaults, control: true },
];
