import { ConnectionSetupError } from '../../api/network/setup-error.js';
import { isRefusal, settle } from '../../api/client/settle.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClaimsClient } from '../../api/client/index.js';
import { ClaimsHttpError, OutcomeUnknownError } from '../../api/errors.js';
import type { CheckedBody } from '../../api/client/request-parts.js';
import type { Claim, NewClaimBody, newClaimBody } from '../../api/schemas/claim.js';
import type { Journal, RowProblem, RowRecord } from '../journal/journal.js';
import { wireFieldToMappingField } from '../../job-files/claims/wire-fields.js';
import { claimOwnership, intendedFromBody, withdrawnRefusal } from '../../job-files/claims/identity.js';
import { ClaimWire } from './wire-body.js';

/** What creating a claim came to, for the claim's rows. */
export type SubmitOutcome =
  /**
   * `existing`: found by a settle, not made by this send; an earlier run may have filed its cases.
   * `attempts`: those of the create that worked, not yet in the journal (the caller records them
   * with the claim's new step, in one transaction); those of failed sends are recorded already.
   */
  | { kind: 'created'; caseIds: Set<string>; existing: boolean; attempts: number }
  | { kind: 'rejected'; claimProblem: RowProblem; rowProblems: Map<number, RowProblem> };

/** A create may be sent again after this many settles that found nothing (a flaky connection). */
const maxSends = 3;
/** Wait between a create whose outcome is unknown and the retrieve that settles it. */
const settleDelayMs = 1000;

/**
 * Creates the claim exactly once (docs/import.md, "No duplicates"). Before every send the journal
 * records `submitting`; an unknown outcome (connection lost after sending, 5xx) or a 409 is settled
 * by retrieving the claim by its deterministic id: found and holding our transactions → adopted,
 * found holding another dispute → refused, absent → sent.
 * (A claim an earlier run may have sent is settled by the caller before evidence is uploaded.)
 * `checked`: the same body already checked against the new_claim schema (checkClaimBody), sent
 * as it is. `body` as a ClaimWire: its value is made only if a settle compares it.
 */
export async function submitClaim(
  client: ClaimsClient,
  journal: Journal,
  claimKey: string,
  body: (NewClaimBody & { claim_id: string }) | ClaimWire,
  rows: readonly RowRecord[],
  checked?: CheckedBody<typeof newClaimBody>,
): Promise<SubmitOutcome> {
  for (let sends = 1; ; sends++) {
    const before = journal.sentBefore(claimKey, body.claim_id);
    await journal.beginCreate(claimKey, body.claim_id);
    try {
      const { data, attempts } = await client.claims.createWithCasesIds(checked ?? valueOf(body));
      return adopted(data, false, attempts);
    } catch (error) {
      // Never sent (a certificate or a proxy set up wrongly): the claim as it was before this send
      // (it reached here only once the service had no claim by its id), so the journal marks
      // nothing sent that was not.
      if (error instanceof ConnectionSetupError) {
        await journal.createNotSent(claimKey, body.claim_id, before);
        throw error;
      }
      journal.addAttempts(claimKey, (error as { attempts?: number }).attempts ?? 1);
      const conflict = error instanceof ClaimsHttpError && error.status === 409;
      if (!(error instanceof OutcomeUnknownError) && !conflict) {
        if (!isRefusal(error)) throw error;
        // A refusal of a resend may be the service's way of saying the first send worked.
        const found = sends > 1 ? await settle(client, body.claim_id) : undefined;
        return found ? adoptedIfOurs(found, valueOf(body), rows, error.status) : rejected(error, rows);
      }
      // A create that broke off may still be committing: give it a moment before looking.
      if (error instanceof OutcomeUnknownError) await sleep(settleDelayMs);
      const found = await settle(client, body.claim_id);
      if (found) return adoptedIfOurs(found, valueOf(body), rows, conflict ? 409 : undefined);
      // 409 but no such claim: a case id of ours belongs to another claim.
      if (conflict) return rejected(error, rows);
      if (sends >= maxSends) throw error;
    }
  }
}

function valueOf(body: (NewClaimBody & { claim_id: string }) | ClaimWire): NewClaimBody & { claim_id: string } {
  return body instanceof ClaimWire ? body.body : body;
}

/**
 * A claim found under our id (a 409, or a settle after an unknown outcome): adopted only when it
 * holds this claim's transactions (identity.ts); another dispute under the same key is refused on
 * every row, and left as it is.
 */
function adoptedIfOurs(
  found: Claim,
  body: NewClaimBody & { claim_id: string },
  rows: readonly RowRecord[],
  httpStatus: number | undefined,
): SubmitOutcome {
  const ownership = claimOwnership(found, intendedFromBody(body, rows), rows, { httpStatus });
  if (!ownership.ours)
    return { kind: 'rejected', claimProblem: ownership.claimProblem, rowProblems: ownership.problems };
  // Ours, but withdrawn: never adopted as if the rows were filed on it.
  const withdrawn = withdrawnRefusal(found, rows, { httpStatus });
  if (withdrawn !== undefined)
    return { kind: 'rejected', claimProblem: withdrawn.claimProblem, rowProblems: withdrawn.problems };
  return adopted(found, true);
}

function adopted(
  claim: { cases?: readonly { case_id: string }[] | null | undefined },
  existing: boolean,
  attempts = 0,
): SubmitOutcome {
  return { kind: 'created', caseIds: new Set((claim.cases ?? []).map((item) => item.case_id)), existing, attempts };
}

/** The service's validation errors, each on the row its `cases.N` names, or on every row. */
function rejected(error: ClaimsHttpError, rows: readonly RowRecord[]): SubmitOutcome {
  const rowProblems = new Map<number, RowProblem>();
  const items =
    error.errors.length > 0 ? error.errors : [{ code: error.code, message: error.serviceMessage, details: {} }];
  for (const item of items) {
    const wirePath = typeof item.details.field === 'string' ? item.details.field.split('.') : [];
    const row = wirePath[0] === 'cases' ? rows[Number(wirePath[1])] : undefined;
    const problem = {
      code: item.code || error.code,
      message: item.message || error.serviceMessage,
      field: wirePath.length > 0 ? wireFieldToMappingField(wirePath) : undefined,
      httpStatus: error.status,
    };
    if (row !== undefined && !rowProblems.has(row.idx)) rowProblems.set(row.idx, problem);
  }
  const first = items[0];
  const claimProblem = {
    code: first?.code || error.code,
    message: first?.message || error.serviceMessage || error.message,
    field:
      typeof first?.details.field === 'string' ? wireFieldToMappingField(first.details.field.split('.')) : undefined,
    httpStatus: error.status,
  };
  return { kind: 'rejected', claimProblem, rowProblems };
}
