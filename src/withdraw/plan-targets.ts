import type { ClaimsClient } from '../api/client/index.js';
import { settle } from '../api/client/settle.js';
import { ClaimsHttpError } from '../api/errors.js';
import type { Claim } from '../api/schemas/claim.js';
import type { TargetRecord, WithdrawJournal, WithdrawLine } from '../job-files/withdraw/journal.js';
import type { WithdrawPlan } from './plan.js';
import type { WithdrawWork } from './withdraw-work.js';
import { planClaim, type ClaimPlan } from './withdrawals.js';
import type { WithdrawTarget } from './sources.js';

/** A target's claim as retrieved, and what taking it back means. */
export interface PlannedTarget {
  target: WithdrawTarget;
  plan: ClaimPlan;
}

/**
 * Reads only: every pending claim retrieved and planned, so the confirmation shows it all. The
 * plans by the target's place in the journal; a target not planned (the run stopped) is absent.
 */
export async function planTargets(
  pending: readonly TargetRecord[],
  work: WithdrawWork,
  { withdrawals, progress }: Pick<WithdrawPlan, 'withdrawals' | 'progress'>,
): Promise<Map<number, PlannedTarget>> {
  const { client, journal, sender } = work;
  const plans = new Map<number, PlannedTarget>();
  const planned = new Set<string>();
  progress?.begin({ label: 'planning', unit: 'claims', total: pending.length });
  let done = 0;
  await Promise.all(
    pending.map(async (record) =>
      sender.limit(async () => {
        if (sender.stopping) return;
        try {
          const entry = await planTarget(client, record, withdrawals, journal);
          sender.succeeded();
          // Two sources naming one claim: it is taken back once.
          if (withdrawals.scope === 'claim' && entry.found !== undefined) {
            if (planned.has(entry.found.claim_id)) entry.plan = { final: [], requests: [] };
            planned.add(entry.found.claim_id);
          }
          plans.set(record.seq, entry);
        } catch (error) {
          sender.failed(error);
        }
        progress?.update(++done);
        sender.showBreaker();
      }),
    ),
  );
  return plans;
}

/** One target's claim, retrieved (a case-only target's by its case) and planned. */
async function planTarget(
  client: ClaimsClient,
  record: TargetRecord,
  withdrawals: WithdrawPlan['withdrawals'],
  journal: WithdrawJournal,
): Promise<{ target: WithdrawTarget; plan: ClaimPlan; found: Claim | undefined }> {
  const target: WithdrawTarget = {
    claimId: record.claim_id,
    claimKey: record.claim_key,
    caseIds: JSON.parse(record.case_ids) as string[],
    ...(record.proof === null ? {} : { proof: JSON.parse(record.proof) as NonNullable<WithdrawTarget['proof']> }),
  };
  if (target.claimId === '') {
    const claimId = await claimOfCase(client, target.caseIds[0] ?? '');
    if (claimId === undefined) {
      const lines = target.caseIds.map((caseId) => notFoundCase(target, caseId, journal));
      return { target, plan: { final: lines, requests: [] }, found: undefined };
    }
    target.claimId = claimId;
  }
  const found = await settle(client, target.claimId);
  const plan = planClaim(target, found, {
    ...withdrawals,
    wasSent: (id, action) => journal.wasSent(id, action),
  });
  return { target, plan, found };
}

async function claimOfCase(client: ClaimsClient, caseId: string): Promise<string | undefined> {
  try {
    const held = (await client.cases.retrieve(caseId)).data as { claim_id?: string | null };
    return typeof held.claim_id === 'string' && held.claim_id !== '' ? held.claim_id : undefined;
  } catch (error) {
    if (error instanceof ClaimsHttpError && error.status === 404) return undefined;
    throw error;
  }
}

/** A listed case the service does not hold: gone by this job's delete, or never there. */
function notFoundCase(target: WithdrawTarget, caseId: string, journal: WithdrawJournal): WithdrawLine {
  const deleted = journal.wasSent(caseId, 'delete_case');
  return {
    claimKey: target.claimKey,
    claimId: '',
    caseId,
    statusBefore: deleted ? 'created' : '',
    outcome: deleted ? 'deleted' : 'not_found',
    statusAfter: deleted ? 'deleted' : '',
    errorCode: deleted ? '' : 'not_found',
    errorMessage: deleted ? '' : `case ${caseId}: expected at the service, got none (404): nothing to take back`,
    httpStatus: deleted ? '' : '404',
    attempts: 0,
  };
}
