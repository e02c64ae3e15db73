import type { SandboxCore } from '../core.js';
import { simpleError, validationError } from '../http/errors.js';
import type { HandlerCall, Reply } from '../http/routes.js';
import { pageOf, readPageRequest, type PageQuery } from '../store/pagination.js';
import { findCase, findClaim, type CaseRow, type ClaimRow, type Environment } from '../store/records.js';

/** Lookups with the document's exact 404 messages, and checks shared by several handlers. */

export function requireClaim(core: SandboxCore, environment: Environment, claimId: string): ClaimRow {
  const claim = findClaim(core.database, environment, claimId);
  if (!claim) throw simpleError(404, 'claim not found');
  return claim;
}

export function requireCase(core: SandboxCore, environment: Environment, caseId: string): CaseRow {
  const row = findCase(core.database, environment, caseId);
  if (!row) throw simpleError(404, 'case not found');
  return row;
}

/**
 * `case_ids` of create claim and set claim cases: no repeats, all existing, none in another
 * claim. A missing case is a 400 naming its index; a case owned elsewhere is a 409 (sandbox
 * choice: a case belongs to one claim at a time).
 */
export function claimableCases(
  core: SandboxCore,
  environment: Environment,
  caseIds: string[],
  claimId: string,
): CaseRow[] {
  const rows: CaseRow[] = [];
  const problems = [];
  const seen = new Set<string>();
  for (const [index, caseId] of caseIds.entries()) {
    const field = `case_ids.${index}`;
    if (seen.has(caseId)) {
      problems.push({
        code: 'parameter_invalid',
        details: { field },
        message: `${field}: expected each case once, got ${JSON.stringify(caseId)} again`,
      });
      continue;
    }
    seen.add(caseId);
    const row = findCase(core.database, environment, caseId);
    if (!row)
      problems.push({
        code: 'resource_missing',
        details: { field },
        message: `${field}: expected an existing case, got ${JSON.stringify(caseId)}`,
      });
    else rows.push(row);
  }
  if (problems.length > 0) throw validationError('all cases must exist', problems);
  const owned = rows.find((row) => row.claim_id !== null && row.claim_id !== claimId);
  if (owned) throw simpleError(409, `case ${owned.case_id} already belongs to claim ${owned.claim_id ?? ''}`);
  return rows;
}

/** The common shape of a case handler: one transaction around the lookup and the change. */
export function withCase(call: HandlerCall, work: (row: CaseRow) => Reply): Reply {
  return call.core.transaction(() => work(requireCase(call.core, call.environment, call.params.case_id ?? '')));
}

/** A client-supplied id already in use in this environment: 409 `{message}` (sandbox choice, docs/sandbox.md). */
export function refuseExistingClaim(core: SandboxCore, environment: Environment, claimId: string): void {
  if (findClaim(core.database, environment, claimId)) throw simpleError(409, `claim_id ${claimId} already exists`);
}

export function refuseExistingCase(core: SandboxCore, environment: Environment, caseId: string): void {
  if (findCase(core.database, environment, caseId)) throw simpleError(409, `case_id ${caseId} already exists`);
}

/** A list endpoint's answer: one page of the environment's rows, each shown as `view` shows it. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the row type is the table's, named by the caller as for pageOf
export function listReply<Row>(call: HandlerCall, query: PageQuery, view: (row: Row) => unknown): Reply {
  const page = pageOf<Row>(call.core.database, call.environment, query, readPageRequest(call.query));
  return { status: 200, body: { data: page.rows.map(view), has_more: page.hasMore } };
}
