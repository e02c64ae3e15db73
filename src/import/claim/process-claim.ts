import type { ClaimRecord, Journal, RowProblem } from '../journal/journal.js';
import type { CaseToFile } from '../journal/sending-statements.js';
import type { Claim } from '../../api/schemas/claim.js';
import type { ClaimWork } from './claim-work.js';
import { prepareClaim, type ClaimAhead } from './prepare-ahead.js';
import { createOnce } from './create-once.js';
import { fileClaim, type FilingResult } from './file.js';

export type { ClaimWork } from './claim-work.js';

/**
 * One claim through the remote steps (staged → submitting → created → filing → done), starting from
 * whichever step the journal holds. Remote failures throw: the caller records them and the step
 * stays, so the next run continues from it.
 */
export async function processClaim(claim: ClaimRecord, work: ClaimWork, ahead?: ClaimAhead): Promise<void> {
  let step = claim.step;
  // Filing settles first when an earlier run may have filed: an interrupted filing, or a claim
  // found rather than made here (a fed-back results file, --restart), whose cases may have moved on.
  let settleFirst = step === 'filing';
  let found: Claim | undefined;
  if (step === 'staged' || step === 'submitting') {
    const created = await createOnce(claim, ahead?.take() ?? prepareClaim(claim, work.journal, work.stagedHere), work);
    // Not filed (--file-mode none): recorded done with the create, nothing left to do.
    if (created === undefined || created.done) return;
    step = 'created';
    settleFirst = created.existing;
    // Retrieved a moment ago: the filing reads the cases' statuses from it, not from a second retrieve.
    found = created.found;
  }
  await fileCases(step, claim, work, settleFirst, found);
}

/** From `created` (or an interrupted `filing`): file the claim's cases, or stop at created. */
async function fileCases(
  step: ClaimRecord['step'],
  claim: ClaimRecord,
  work: ClaimWork,
  settleFirst: boolean,
  found?: Claim,
): Promise<void> {
  const { journal } = work;
  const key = claim.claim_key;
  if (step !== 'created' && step !== 'filing') return;
  // A dry run stops at the create's check: nothing is filed.
  if (claim.claim_id === null || work.mode.kind !== 'send') return;
  const cases = journal.casesToFile(key);
  if (work.plan.mapping.fileMode === 'none') {
    journal.transaction(() => {
      for (const row of cases) journal.setRowOutcome(row.idx, 'created', { httpStatus: 201 });
      journal.setStep(key, 'done');
    });
    return;
  }
  await journal.beginFiling(key);
  const filing = await fileClaim(
    work.mode.client,
    claim.claim_id,
    cases.map((row) => row.case_id),
    work.plan.mapping.fileMode,
    settleFirst,
    found,
  );
  recordFiling(journal, key, cases, filing);
}

function recordFiling(journal: Journal, key: string, cases: readonly CaseToFile[], filing: FilingResult): void {
  journal.transaction(() => {
    for (const row of cases) {
      const result = filing.get(row.case_id);
      if (result === undefined) continue;
      if (result.filed) journal.setRowOutcome(row.idx, 'filed', { httpStatus: 202 });
      else
        journal.setRowOutcome(row.idx, 'not_filed', {
          ...result.problem,
          httpStatus: result.problem.httpStatus ?? 202,
        } satisfies RowProblem);
    }
    journal.setStep(key, 'done', { httpStatus: 202 });
  });
}
