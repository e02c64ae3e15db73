import { closedCaseStatuses } from '../api/schemas/known-values.js';
import type { Claim } from '../api/schemas/claim.js';
import { proveOwnClaim } from '../job-files/claims/identity.js';
import { keyTaken } from '../job-files/migrate/key-taken.js';
import type { SentAction, WithdrawLine } from '../job-files/withdraw/journal.js';
import type { WithdrawTarget } from '../job-files/withdraw/target.js';

/**
 * What taking one claim back means, decided from the claim as a retrieve shows it (the service's
 * state table: docs/withdraw.md, "Claim or case"): pure, so the dry run, the confirmation and the
 * run itself read one decision. A case's line is final (`already_closed`, `not_found`, `refused`,
 * or a withdrawal an earlier run sent that the service has applied) or waits on a request.
 */

export type Scope = 'claim' | 'case';

/** What taking a claim back means, as the job was asked: the same for every claim of the run. */
export interface WithdrawalRules {
  /** `--scope`: each whole claim withdrawn, or only the cases the sources name. */
  readonly scope: Scope;
  /** `--delete-unfiled`: with --scope case, an unfiled case is deleted rather than withdrawn. */
  readonly deleteUnfiled: boolean;
}

export interface PlanOptions extends WithdrawalRules {
  /** Whether an earlier run sent this request: a closed claim is then this job's doing. */
  wasSent: (targetId: string, action: SentAction) => boolean;
}

/** A request still to send, and the lines it settles. */
export interface PendingRequest {
  action: SentAction;
  /** The claim id (withdraw_claim) or the case id. */
  targetId: string;
  /** The lines it settles, each with what the case becomes when it succeeds. */
  lines: WithdrawLine[];
}

export interface ClaimPlan {
  /** Lines settled by the retrieve alone. */
  final: WithdrawLine[];
  requests: PendingRequest[];
}

export function isClosedCase(item: {
  status?: string | null | undefined;
  closed_reason?: string | null | undefined;
}): boolean {
  return closedCaseStatuses.has(item.status ?? '') || (item.closed_reason ?? null) !== null;
}

/** What a withdrawal makes of a case (the state table): an unfiled case closes, a filed one is lost. */
function afterWithdrawal(status: string): string {
  return status === 'created' ? 'closed' : 'lost';
}

type HeldCase = NonNullable<Claim['cases']>[number];

export function planClaim(target: WithdrawTarget, found: Claim | undefined, options: PlanOptions): ClaimPlan {
  const line = (caseId: string, fields: Partial<WithdrawLine>): WithdrawLine => ({
    claimKey: target.claimKey,
    claimId: found?.claim_id ?? target.claimId,
    caseId,
    statusBefore: '',
    outcome: '',
    statusAfter: '',
    errorCode: '',
    errorMessage: '',
    httpStatus: '',
    attempts: 0,
    ...fields,
  });
  const named = target.caseIds.length > 0 ? target.caseIds : [''];
  if (found === undefined) {
    return {
      final: named.map((caseId) =>
        line(caseId, {
          outcome: 'not_found',
          errorCode: 'not_found',
          errorMessage: `claim ${target.claimId}: expected at the service, got none (404): nothing to take back`,
          httpStatus: '404',
        }),
      ),
      requests: [],
    };
  }
  const refusal = notOurs(target, found);
  if (refusal !== undefined) {
    const cases = target.caseIds.length > 0 ? target.caseIds : (found.cases ?? []).map((item) => item.case_id);
    return {
      final: (cases.length > 0 ? cases : ['']).map((caseId) =>
        line(caseId, { outcome: 'refused', errorCode: 'not_ours', errorMessage: refusal }),
      ),
      requests: [],
    };
  }
  const held = found.cases ?? [];
  return options.scope === 'claim'
    ? planWholeClaim(found, held, line, options)
    : planCases(target, held, line, options);
}

/** --scope claim: one withdrawal closes every case still open; closed ones stay as they are. */
function planWholeClaim(
  found: Claim,
  held: readonly HeldCase[],
  line: (caseId: string, fields: Partial<WithdrawLine>) => WithdrawLine,
  options: PlanOptions,
): ClaimPlan {
  const sentBefore = options.wasSent(found.claim_id, 'withdraw_claim');
  const final: WithdrawLine[] = [];
  const waiting: WithdrawLine[] = [];
  for (const item of held) {
    const status = item.status ?? 'unknown';
    if (isClosedCase(item)) final.push(closedLine(item, sentBefore, line));
    else waiting.push(line(item.case_id, { statusBefore: status, statusAfter: afterWithdrawal(status) }));
  }
  // A claim the service closed holds nothing to withdraw (a second withdrawal is a 400).
  if (found.status === 'closed' || waiting.length === 0) {
    return {
      final: [
        ...final,
        ...waiting.map((open) => ({ ...open, outcome: 'already_closed', statusAfter: open.statusBefore })),
      ],
      requests: [],
    };
  }
  return { final, requests: [{ action: 'withdraw_claim', targetId: found.claim_id, lines: waiting }] };
}

/** --scope case: only the named cases, each with a request of its own. */
function planCases(
  target: WithdrawTarget,
  held: readonly HeldCase[],
  line: (caseId: string, fields: Partial<WithdrawLine>) => WithdrawLine,
  options: PlanOptions,
): ClaimPlan {
  const byId = new Map(held.map((item) => [item.case_id, item]));
  const final: WithdrawLine[] = [];
  const requests: PendingRequest[] = [];
  const named = target.caseIds.length > 0 ? target.caseIds : held.map((item) => item.case_id);
  for (const caseId of named) {
    const item = byId.get(caseId);
    if (item === undefined) {
      // Deleted by an earlier run of this job: the delete is what made it go.
      if (options.wasSent(caseId, 'delete_case'))
        final.push(line(caseId, { statusBefore: 'created', outcome: 'deleted', statusAfter: 'deleted' }));
      else
        final.push(
          line(caseId, {
            outcome: 'not_found',
            errorCode: 'not_found',
            errorMessage: `case ${caseId}: expected in claim ${target.claimId}, got a claim without it`,
          }),
        );
      continue;
    }
    const status = item.status ?? 'unknown';
    if (isClosedCase(item)) {
      final.push(closedLine(item, options.wasSent(caseId, 'withdraw_case'), line));
    } else if (status === 'created' && options.deleteUnfiled) {
      requests.push({
        action: 'delete_case',
        targetId: caseId,
        lines: [line(caseId, { statusBefore: status, statusAfter: 'deleted' })],
      });
    } else if (status === 'created' || status === 'chargeback_filed') {
      requests.push({
        action: 'withdraw_case',
        targetId: caseId,
        lines: [line(caseId, { statusBefore: status, statusAfter: afterWithdrawal(status) })],
      });
    } else {
      // The interface withdraws a case only in `created` or `chargeback_filed`.
      final.push(
        line(caseId, {
          statusBefore: status,
          outcome: 'refused',
          statusAfter: status,
          errorCode: 'not_withdrawable',
          errorMessage:
            `case ${caseId} is ${status}: the service withdraws a case only while created or chargeback_filed; ` +
            `withdraw the whole claim (--scope claim) to close it`,
        }),
      );
    }
  }
  return { final, requests };
}

/** A case closed already: this job's withdrawal (sent by an earlier run, and applied), or closed before. */
function closedLine(
  item: HeldCase,
  sentBefore: boolean,
  line: (caseId: string, fields: Partial<WithdrawLine>) => WithdrawLine,
): WithdrawLine {
  const status = item.status ?? 'unknown';
  const ours = sentBefore && item.closed_reason === 'withdrawn';
  return line(item.case_id, {
    statusBefore: ours ? '' : status,
    outcome: ours ? 'withdrawn' : 'already_closed',
    statusAfter: status,
  });
}

/** Why the claim found is not the job's own (it holds cases the job did not send), or undefined when it is, or the source vouches for it. */
function notOurs(target: WithdrawTarget, found: Claim): string | undefined {
  const proof = target.proof;
  if (proof === undefined) return undefined;
  if (proof.kind === 'migrate') {
    return keyTaken(
      found,
      proof.caseIds.map((caseId) => ({ case_id: caseId })),
    ) === undefined
      ? undefined
      : `claim ${found.claim_id} at the service holds other cases than the migration's group: left as it is`;
  }
  const intended = proof.cases.map((item) => ({
    row: { idx: item.line, line: item.line, case_id: item.caseId, reported_case_id: null, outcome: null },
    transaction: item.transaction,
    last4: item.last4,
  }));
  const verdict = proveOwnClaim(found, intended);
  return verdict.ours
    ? undefined
    : `claim ${found.claim_id} at the service is not this job's claim: ${verdict.why}; left as it is`;
}
