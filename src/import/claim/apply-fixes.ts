import type { Case, CaseUpdate } from '../../api/schemas/case.js';
import type { Claim } from '../../api/schemas/claim.js';
import { isRefusal } from '../../api/client/settle.js';
import type { ClaimRecord, RowProblem, RowRecord } from '../journal/journal.js';
import { caseAsSent, caseChanges } from './case-changes.js';
import { newEvidence, type NewEvidence } from './new-evidence.js';
import type { ClaimWork, SendingClaims } from './claim-work.js';

/** Fixes reach the service only when the run sends. */
type FixWork = ClaimWork & { readonly mode: SendingClaims };

/** Case statuses that may still change: created and not filed (the service refuses an update otherwise). */
const updatableStatuses = new Set(['created']);
/** Closed without a filing: nothing changes them, and nothing files them. */
const closedStatuses = new Set(['closed', 'withdrawn']);

/**
 * Feed-back that reaches the service: a claim it already holds, with the rows fed back now. Each
 * row's case is compared with the case as retrieved (case-changes.ts) and its evidence
 * with the claim's documentation (new-evidence.ts):
 * - a case not yet filed gets what changed in one `PUT /v2/issuer/cases/{case_id}` (a new file
 *   goes to every case of the claim: documentation is the claim's), and its row lists the fields
 *   in `changed_fields`; the filing that follows files it again;
 * - a filed or closed case cannot change: its row says so (`already_filed`, `case_closed`) with
 *   the fields that differ, and nothing is sent;
 * - an unchanged case gets no request.
 * The fields are recorded before the PUT leaves (durably), and an update is the same request
 * whenever it is sent: a crash before its answer is settled by the next run's comparison, which
 * finds what is left to change (nothing, if it was applied). A dry run records what it would do
 * and sends nothing (recordWouldApply).
 */
export async function applyFixes(
  found: Claim,
  claim: ClaimRecord,
  rows: readonly RowRecord[],
  work: ClaimWork,
): Promise<void> {
  const { journal, mode } = work;
  const plan = await planFixes(found, claim, rows, work);
  journal.transaction(() => {
    if (mode.kind === 'send')
      for (const [idx, ids] of plan.evidence.fileIdsByRow)
        if (ids.length > 0) journal.setRowFileIds(idx, ids.join(';'));
    for (const [idx, { outcome, ...problem }] of plan.evidence.problems) journal.setRowOutcome(idx, outcome, problem);
    if (mode.kind === 'check') for (const fix of plan.fixes) recordWouldApply(fix, work);
  });
  if (mode.kind === 'send') for (const fix of plan.fixes) await applyToCase(fix, { ...work, mode });
}

/**
 * A dry run's fix (`--dry-run` on a feed-back): what the real run would do, recorded on the row
 * (its `changed_fields`, or `already_filed` / `case_closed`), with nothing sent: a new file is
 * checked and counted, not uploaded.
 */
function recordWouldApply(fix: CaseFix, { journal }: ClaimWork): void {
  const refusal = unchangeable(fix);
  if (refusal === undefined) journal.setRowChangedFields(fix.row.idx, fix.fields.join(';'));
  else journal.setRowOutcome(fix.row.idx, 'valid', refusal.problem);
}

/** One case's fix: what changed, as the update that applies it. */
interface CaseFix {
  row: RowRecord;
  held: Case;
  update: CaseUpdate;
  fields: readonly string[];
}

async function planFixes(
  found: Claim,
  claim: ClaimRecord,
  rows: readonly RowRecord[],
  work: ClaimWork,
): Promise<{ fixes: CaseFix[]; evidence: NewEvidence }> {
  const heldById = new Map((found.cases ?? []).map((item) => [item.case_id, item]));
  const named = new Set(rows.map((row) => row.case_id));
  const unnamed = [...heldById.keys()].filter((caseId) => !named.has(caseId));
  // A row taken out of the export does not take its case out of the claim: said, left as it is.
  if (unnamed.length > 0)
    work.logger.warn(
      { caseIds: unnamed },
      'the claim holds cases no row names any more: left as they are (withdraw a case in the service to drop it)',
    );
  const open = rows.filter((row) => row.outcome === null && row.case_id !== null && heldById.has(row.case_id));
  const evidence = await newEvidence(found, open, work);
  const shared = JSON.parse(claim.shared_json) as Record<string, unknown>;
  const fixes: CaseFix[] = [];
  for (const row of open) {
    if (evidence.problems.has(row.idx)) continue;
    const held = heldById.get(row.case_id ?? '') as Case;
    const { changes, update } = caseChanges(
      caseAsSent(shared, JSON.parse(row.case_json ?? '{}') as Record<string, unknown>),
      held,
    );
    const fields = changes.map((change) => change.mappingField);
    if (evidence.newFileIds.length > 0) {
      update.issuer_evidence = {
        ...(update.issuer_evidence as object | undefined),
        documentation: evidence.documentation,
      };
      fields.push(...(evidence.fieldsByRow.get(row.idx) ?? ['shared.issuer_evidence.documentation']));
    }
    if (fields.length > 0) fixes.push({ row, held, update, fields: [...new Set(fields)] });
  }
  return { fixes, evidence };
}

/** Why a fix cannot be applied (the case is filed or closed), as the row's outcome; undefined when it can. */
function unchangeable(fix: CaseFix): { outcome: 'filed' | 'not_filed'; problem: RowProblem } | undefined {
  const status = typeof fix.held.status === 'string' ? fix.held.status : 'unknown';
  if (updatableStatuses.has(status)) return undefined;
  const closed = closedStatuses.has(status);
  return {
    outcome: closed ? 'not_filed' : 'filed',
    problem: {
      code: closed ? 'case_closed' : 'already_filed',
      message: `case ${fix.held.case_id} is ${status} at the service, which cannot change it: not applied: ${fix.fields.join(', ')}`,
      field: fix.fields[0],
    },
  };
}

async function applyToCase(fix: CaseFix, work: FixWork): Promise<void> {
  const { journal } = work;
  const { row, held, update, fields } = fix;
  const caseId = held.case_id;
  const refusal = unchangeable(fix);
  if (refusal !== undefined) {
    // Nothing is sent: the service keeps a filed or closed case as it is.
    journal.setRowOutcome(row.idx, refusal.outcome, refusal.problem);
    work.logger.info({ caseId, status: held.status, fields }, 'fix not applied: the case cannot change any more');
    return;
  }
  await journal.beginUpdate(row.idx, fields.join(';'));
  try {
    await work.mode.client.cases.update(caseId, update);
    work.logger.debug({ caseId, fields }, 'case updated');
  } catch (error) {
    if (!isRefusal(error)) throw error;
    const item = error.errors[0];
    journal.setRowOutcome(row.idx, 'rejected', {
      code: item?.code || error.code,
      message: `update of case ${caseId} refused: ${item?.message || error.serviceMessage}`,
      field: fields[0],
      httpStatus: error.status,
    });
  }
}
