import { setTimeout as sleep } from 'node:timers/promises';
import type { ClaimsClient } from '../../api/client/index.js';
import { OutcomeUnknownError } from '../../api/errors.js';
import type { Claim } from '../../api/schemas/claim.js';
import type { CaseReview } from '../../api/schemas/resources.js';
import type { RowProblem } from '../journal/journal.js';
import { filingErrorsProblem } from './filing-problem.js';
import { isRefusal, settle } from '../../api/client/settle.js';

export type FileMode = 'auto' | 'chargeback';

/** Per case id: filed, or why not. */
export type FilingResult = Map<string, { filed: true } | { filed: false; problem: RowProblem }>;

/**
 * Case statuses that do not show a filing: not yet filed, or closed without one (a withdrawn
 * case). Every other status (chargeback_filed and all that follow it) means it was filed.
 */
const unfiledStatuses = new Set(['created', 'closed', 'withdrawn']);

/**
 * Files a created claim. A case the service did not file gets its reasons from the case review, so
 * staff know what to fix. Filing is not repeatable: a filing whose outcome is unknown, or one an
 * earlier run began, is settled by retrieving the claim first.
 */
export async function fileClaim(
  client: ClaimsClient,
  claimId: string,
  caseIds: readonly string[],
  mode: FileMode,
  settleFirst: boolean,
  found?: Claim,
): Promise<FilingResult> {
  const results: FilingResult = new Map();
  let pending = [...caseIds];
  // `found`: the claim as this run just retrieved it (only this run's filing could have moved it since).
  if (settleFirst) pending = await stillUnfiled(client, claimId, pending, results, found);
  if (pending.length === 0) return results;
  let answer;
  try {
    answer = (await client.claims.file(claimId, { file_mode: mode })).data;
  } catch (error) {
    if (error instanceof OutcomeUnknownError) {
      pending = await stillUnfiled(client, claimId, pending, results);
      if (pending.length === 0) return results;
      throw error;
    }
    if (isRefusal(error)) {
      const problem = {
        code: error.errors[0]?.code || error.code,
        message: error.errors[0]?.message || error.serviceMessage,
        httpStatus: error.status,
      };
      for (const caseId of pending) results.set(caseId, { filed: false, problem });
      return results;
    }
    throw error;
  }
  const successByCase = new Map(answer.results.map((item) => [item.case_id, item.success]));
  for (const caseId of pending) {
    if (successByCase.get(caseId) === true) results.set(caseId, { filed: true });
    else results.set(caseId, { filed: false, problem: reasonOf(await completedReview(client, caseId)) });
  }
  return results;
}

/** Records the cases the service already shows as filed; returns the rest. */
async function stillUnfiled(
  client: ClaimsClient,
  claimId: string,
  caseIds: readonly string[],
  results: FilingResult,
  found?: Claim,
): Promise<string[]> {
  const claim = found ?? (await settle(client, claimId));
  const statusById = new Map((claim?.cases ?? []).map((item) => [item.case_id, item.status]));
  return caseIds.filter((caseId) => {
    const status = statusById.get(caseId);
    if (typeof status === 'string' && !unfiledStatuses.has(status)) {
      results.set(caseId, { filed: true });
      return false;
    }
    return true;
  });
}

/** The review, once it has left `processing` (or as it is after a few short waits). */
async function completedReview(client: ClaimsClient, caseId: string): Promise<CaseReview | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const { data } = await client.cases.review(caseId);
      if (data.status !== 'processing') return data;
    } catch {
      return undefined;
    }
    await sleep(200 * (attempt + 1));
  }
  return undefined;
}

/** The first filing error, or the workflow's decision, as a row problem. */
export function reasonOf(review: CaseReview | undefined): RowProblem {
  const filing = filingErrorsProblem(review?.filing_errors ?? []);
  if (filing !== undefined) return filing;
  const outcome = review?.workflow?.outcome;
  if (typeof outcome === 'string' && outcome !== 'file_chargeback') {
    return {
      code: `workflow_${outcome}`,
      message: `the service's workflow rules decided to ${outcome.replaceAll('_', ' ')} instead of filing; see the case review`,
    };
  }
  if (review === undefined)
    return {
      code: 'review_unavailable',
      message: 'the service did not file the case, and its review could not be read',
    };
  return { code: 'not_filed', message: 'the service did not file the case and its review gives no reason' };
}
