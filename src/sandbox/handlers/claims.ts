import { createClaimBody, fileBody, newClaimBody, setClaimCasesBody } from '../../api/schemas/claim.js';
import { applyWithdrawal, caseState, fileCaseIfValid, refreshClaimStatus } from '../lifecycle.js';
import { parseBody } from '../http/body.js';
import { simpleError } from '../http/errors.js';
import { JsonText, type HandlerCall, type Reply } from '../http/routes.js';
import {
  casesOfClaim,
  deleteInserted,
  insertCase,
  insertClaim,
  saveCase,
  updateClaim,
  type ClaimRow,
  type InsertedRow,
} from '../store/records.js';
import { isClosed, withdrawnWithClaim } from '../rules/states.js';
import { claimSummaryView, claimView } from '../views.js';
import { caseDocumentWriter } from './case-document.js';
import { claimableCases, listReply, refuseExistingClaim, requireClaim } from './shared.js';
import { codeOf } from '../../errors/coded-error.js';

/**
 * POST /v2/issuer/new_claim: shared fields merged into each case, the card into `transaction`.
 * Taken ids are found by the tables' UNIQUE keys (one statement fewer each), and the answer is
 * built from what was written rather than read back: both cut what each request costs.
 */
export async function newClaim(call: HandlerCall): Promise<Reply> {
  const body = parseBody(newClaimBody, await call.json());
  const { core, environment } = call;
  // Only inserts: a refusal (a taken case id) deletes the rows this request inserted before it.
  const inserted: InsertedRow[] = [];
  const undo = () => {
    for (const row of inserted.reverse()) deleteInserted(core.database, row);
  };
  return core.insertOnly(() => {
    const claimId = body.claim_id ?? core.newId('claim');
    const created = core.nowIso();
    const claim: Omit<ClaimRow, 'seq'> = { environment, claim_id: claimId, status: 'open', created, updated: created };
    inserted.push({
      table: 'claims',
      seq: refusedIfTaken(() => insertClaim(core.database, claim), `claim_id ${claimId} already exists`),
    });
    const caseText = caseDocumentWriter(body, claimId, created);
    const cases = body.cases.map((item) => {
      const caseId = item.case_id ?? core.newId('case');
      const text = caseText(item, caseId);
      const row = {
        environment,
        case_id: caseId,
        claim_id: claimId,
        api_version: 2,
        status: 'created',
        filed: 0,
        workflow_state: null,
        unavailable: 0,
        document: text,
      } as const;
      inserted.push({
        table: 'cases',
        seq: refusedIfTaken(() => insertCase(core.database, row), `case_id ${caseId} already exists`),
      });
      inserted.push({ table: 'events', seq: core.recordEvent(environment, 'case.created', caseId, created) });
      // The case as a retrieve shows it: its stored JSON (undefined fields left out).
      return text;
    });
    // The same bytes as JSON.stringify of the claim with its cases parsed back, without the round trip.
    const head = JSON.stringify({ claim_id: claimId, created, updated: created, status: claim.status });
    return { status: 201, body: new JsonText(`${head.slice(0, -1)},"cases":[${cases.join(',')}]}`) };
  }, undo);
}

/** Runs an insert; a UNIQUE key it breaks (an id taken in this environment) is a 409 saying which. */
function refusedIfTaken<Result>(insert: () => Result, message: string): Result {
  try {
    return insert();
  } catch (error) {
    if (codeOf(error) === 'SQLITE_CONSTRAINT_UNIQUE') throw simpleError(409, message);
    throw error;
  }
}

/** POST /v2/issuer/claims: a claim from existing cases. */
export async function createClaim(call: HandlerCall): Promise<Reply> {
  const body = parseBody(createClaimBody, await call.json());
  const { core, environment } = call;
  return core.transaction(() => {
    const claimId = body.claim_id ?? core.newId('claim');
    refuseExistingClaim(core, environment, claimId);
    const rows = claimableCases(core, environment, body.case_ids, claimId);
    const created = core.nowIso();
    insertClaim(core.database, { environment, claim_id: claimId, status: 'open', created, updated: created });
    for (const row of rows) saveCase(core.database, { ...row, claim_id: claimId });
    refreshClaimStatus(core, environment, claimId);
    const { updated: _updated, ...view } = claimView(
      requireClaim(core, environment, claimId),
      casesOfClaim(core.database, environment, claimId),
      false,
    );
    return { status: 201, body: view };
  });
}

/** PUT /v2/issuer/claims/{claim_id}/cases: the complete new list. */
export async function setClaimCases(call: HandlerCall): Promise<Reply> {
  const body = parseBody(setClaimCasesBody, await call.json());
  const { core, environment } = call;
  const claimId = call.params.claim_id ?? '';
  return core.transaction(() => {
    const claim = requireClaim(core, environment, claimId);
    if (claim.status === 'closed') throw simpleError(400, 'cannot change the cases of a claim that is already closed');
    const rows = claimableCases(core, environment, body.case_ids, claimId);
    const keep = new Set(rows.map((row) => row.case_id));
    for (const row of casesOfClaim(core.database, environment, claimId)) {
      if (keep.has(row.case_id)) continue;
      // Cases cannot be modified once filed (docs/sandbox.md, "Claims"); a closed case keeps its
      // claim as its record.
      if (row.filed === 1 || isClosed(row.status)) {
        throw simpleError(400, `case ${row.case_id} has been filed or closed and cannot leave its claim`);
      }
      saveCase(core.database, { ...row, claim_id: null });
    }
    for (const row of rows) saveCase(core.database, { ...row, claim_id: claimId });
    updateClaim(core.database, { ...claim, updated: core.nowIso() });
    refreshClaimStatus(core, environment, claimId);
    return {
      status: 200,
      body: {
        claim_id: claimId,
        cases: casesOfClaim(core.database, environment, claimId).map((row) => ({ case_id: row.case_id })),
      },
    };
  });
}

/** POST /v2/issuer/claims/{claim_id}/file: each case filed if it passes validation. */
export async function fileClaim(call: HandlerCall): Promise<Reply> {
  // `auto` lets the workflow rules decide per case; `chargeback` files every valid case.
  const { file_mode: mode } = parseBody(fileBody, await call.json());
  const { core, environment } = call;
  return core.transaction(() => {
    const claim = requireClaim(core, environment, call.params.claim_id ?? '');
    if (claim.status === 'closed') throw simpleError(400, 'cannot file a claim that is already closed');
    const results = casesOfClaim(core.database, environment, claim.claim_id).map((row) => ({
      case_id: row.case_id,
      success: fileCaseIfValid(core, row, mode),
    }));
    return { status: 202, body: { results } };
  });
}

/** POST /v2/issuer/claims/{claim_id}/withdraw: unfiled cases close, filed cases are lost. */
export async function withdrawClaim(call: HandlerCall): Promise<Reply> {
  const { core, environment } = call;
  return core.transaction(() => {
    const claim = requireClaim(core, environment, call.params.claim_id ?? '');
    if (claim.status === 'closed') throw simpleError(400, 'cannot withdraw a claim that is already closed');
    for (const row of casesOfClaim(core.database, environment, claim.claim_id)) {
      const transition = withdrawnWithClaim(caseState(row));
      if (transition) applyWithdrawal(core, row, transition);
    }
    updateClaim(core.database, { ...claim, status: 'closed', updated: core.nowIso() });
    return { status: 202, body: { success: true } };
  });
}

export async function listClaims(call: HandlerCall): Promise<Reply> {
  return listReply<ClaimRow>(call, { table: 'claims', idColumn: 'claim_id' }, claimSummaryView);
}

export async function retrieveClaim(call: HandlerCall): Promise<Reply> {
  const claim = requireClaim(call.core, call.environment, call.params.claim_id ?? '');
  return {
    status: 200,
    body: claimView(claim, casesOfClaim(call.core.database, call.environment, claim.claim_id), true),
  };
}
