import type { ClaimRecord, Journal, RowProblem, RowRecord } from '../journal/journal.js';
import type { CheckedBody } from '../../api/client/request-parts.js';
import type { Claim, newClaimBody } from '../../api/schemas/claim.js';
import type { CheckingClaims, ClaimWork, SendingClaims } from './claim-work.js';
import { claimWire, type ClaimWire } from './wire-body.js';
import type { PreparedClaim } from './prepare-ahead.js';
import { checkClaimEvidence, type CheckedFile } from './evidence.js';
import { uploadEvidence } from './upload-evidence.js';
import { settle } from '../../api/client/settle.js';
import { submitClaim } from './submit.js';
import { claimOwnership, intendedFromRows, withdrawnRefusal } from '../../job-files/claims/identity.js';
import { applyFixes } from './apply-fixes.js';
import { predictFiling } from './predict-filing.js';

/** What the create left: the claim exists in the service (see createOnce). */
interface Created {
  /** Found, not made now. */
  existing: boolean;
  /** Nothing is to be filed, and the claim was recorded done with its creation. */
  done: boolean;
  /** The claim as retrieved a moment ago, when it was found. */
  found?: Claim;
}

/** A claim whose id is known: every claim that gets as far as the service. */
type NamedClaim = ClaimRecord & { claim_id: string };

type SendingWork = ClaimWork & { readonly mode: SendingClaims };
type CheckingWork = ClaimWork & { readonly mode: CheckingClaims };

/**
 * Evidence, then the create, unless something stops the claim first. Set when the claim exists
 * in the service afterwards; undefined when it is held back, refused, or only checked (dry run).
 */
export async function createOnce(
  claim: ClaimRecord,
  prepared: PreparedClaim,
  work: ClaimWork,
): Promise<Created | undefined> {
  const { journal } = work;
  const { rows } = prepared;
  const key = claim.claim_key;
  const blocked = blockers(rows);
  if (blocked.length > 0 || claim.claim_id === null) {
    holdBack(journal, key, blocked);
    return undefined;
  }
  const named = { ...claim, claim_id: claim.claim_id };
  const { mode } = work;
  if (mode.kind === 'check') {
    // A fed-back claim the service holds, read to show what the real run would update.
    const held = claim.sent === 1 && mode.reader !== undefined ? await settle(mode.reader, named.claim_id) : undefined;
    if (held === undefined) return checkNew(named, prepared, { ...work, mode });
    if (!provenOurs(held, claim, rows, journal)) return undefined;
    await applyFixes(held, named, rows, work);
    journal.setStep(key, 'valid');
    return undefined;
  }
  // Reported created by an earlier run (or this journal): a retrieve settles it before any
  // file is uploaded or create sent.
  const sending = { ...work, mode };
  const found = claim.sent === 1 ? await settle(mode.client, named.claim_id) : undefined;
  if (found !== undefined) return adoptFound(found, named, rows, sending);
  return createNew(named, prepared, sending);
}

/** A claim the service holds under our id: adopted only when proven ours, its fed-back fixes applied. */
async function adoptFound(
  found: Claim,
  named: NamedClaim,
  rows: readonly RowRecord[],
  work: SendingWork,
): Promise<Created | undefined> {
  const { journal } = work;
  const key = named.claim_key;
  // Another dispute under our id (a key that met another file's) is never adopted nor updated.
  if (!provenOurs(found, named, rows, journal)) return undefined;
  // Fixes fed back reach the claim before it is filed again; an unchanged claim gets no request.
  await applyFixes(found, named, rows, work);
  const done = recordCreated(
    journal,
    key,
    named.claim_id,
    journal.rowsOf(key),
    new Set((found.cases ?? []).map((item) => item.case_id)),
    { attempts: 0, finish: work.plan.mapping.fileMode === 'none' },
  );
  return { existing: true, done, found };
}

/** A claim the service does not hold: its evidence checked and uploaded, then new_claim (or, in a dry run, only checked). */
async function createNew(named: NamedClaim, prepared: PreparedClaim, work: SendingWork): Promise<Created | undefined> {
  const { journal } = work;
  const { rows, wire } = prepared;
  const key = named.claim_key;
  const filesByRow = await checkedEvidence(named, prepared, work);
  if (filesByRow === undefined) return undefined;
  const fileIds = await uploadEvidence(journal, key, rows, filesByRow, work.mode.uploads);
  if (fileIds === undefined) return undefined;
  const body = wire ?? claimWire(named, rows, fileIds, work.stagedHere);
  const wireBody = checkOrReject(journal, key, rows, body.check);
  if (wireBody === undefined) return undefined;
  await work.onPayload?.(body.body);
  const outcome = await submitClaim(work.mode.client, journal, key, body, rows, wireBody);
  if (outcome.kind === 'rejected') {
    journal.transaction(() => {
      for (const row of rows)
        journal.setRowOutcome(row.idx, 'rejected', outcome.rowProblems.get(row.idx) ?? outcome.claimProblem);
      journal.setClaimProblem(key, outcome.claimProblem, 'rejected');
    });
    return undefined;
  }
  const done = recordCreated(journal, key, named.claim_id, rows, outcome.caseIds, {
    attempts: outcome.attempts,
    finish: work.plan.mapping.fileMode === 'none',
  });
  return { existing: outcome.existing, done };
}

/**
 * The files the claim's rows name, checked; or undefined, the rows with a bad file recorded invalid
 * and the claim held back.
 */
async function checkedEvidence(
  named: NamedClaim,
  { rows, wire, evidence }: PreparedClaim,
  work: ClaimWork,
): Promise<Map<number, CheckedFile[]> | undefined> {
  // Prepared ahead: no row names a file, so there is nothing to check or upload.
  if (wire !== undefined) return new Map<number, CheckedFile[]>();
  const checked = await (evidence ?? checkClaimEvidence(rows, work.plan.evidence));
  if (checked.ok) return checked.filesByRow;
  const { journal } = work;
  journal.transaction(() => {
    for (const [idx, problem] of checked.problems) journal.setRowOutcome(idx, 'invalid', problem);
  });
  holdBack(
    journal,
    named.claim_key,
    rows.filter((row) => checked.problems.has(row.idx)),
  );
  return undefined;
}

/**
 * A dry run's claim the service does not hold: its evidence checked, its body built and checked,
 * given to `--payloads`, recorded valid; nothing sent. When the run would file, each case is
 * checked against the filing rules too, and a row whose case would not file is recorded
 * `would_not_file` (the claim's other rows stay valid, as the real run files each case on its own).
 */
async function checkNew(named: NamedClaim, prepared: PreparedClaim, work: CheckingWork): Promise<undefined> {
  const filesByRow = await checkedEvidence(named, prepared, work);
  if (filesByRow === undefined) return undefined;
  const { rows, wire } = prepared;
  const { journal } = work;
  // Dry run: file ids are not known; each file is named by its content's hash instead.
  const placeholders = new Map(
    [...filesByRow].map(([idx, files]) => [idx, files.map((file) => `sha256_${file.sha256.slice(0, 32)}`)]),
  );
  const body = wire ?? claimWire(named, rows, placeholders, work.stagedHere);
  if (checkOrReject(journal, named.claim_key, rows, body.check) === undefined) return undefined;
  await work.onPayload?.(body.body);
  const wouldNotFile =
    work.plan.mapping.fileMode === 'none'
      ? new Map<number, RowProblem>()
      : predictFiling(body.body, rows, filesByRow, work.mode.filingClock());
  // Joins the turn's group commit, as a sent claim's outcome does: a commit per checked claim was a
  // sixth of a dry run's checking. A crash before it leaves the claim staged, checked again next run.
  journal.recordStep(named.claim_key, {
    step: 'valid',
    rows: [...wouldNotFile].map(([idx, problem]) => ({ idx, outcome: 'would_not_file', problem })),
  });
  return undefined;
}

/**
 * Whether a claim found under the claim's id holds the rows' transactions (identity.ts) and is
 * still open to them (not withdrawn); when not, every row says so (`claim_key_taken`,
 * `claim_withdrawn`) and the claim is refused, left as it is.
 */
function provenOurs(found: Claim, claim: ClaimRecord, rows: readonly RowRecord[], journal: Journal): boolean {
  const ownership = claimOwnership(found, intendedFromRows(rows, claim.shared_json), rows);
  // Ours but withdrawn: nothing is updated or filed on it, nor reported so.
  const refusal = ownership.ours ? withdrawnRefusal(found, rows) : ownership;
  if (refusal === undefined) return true;
  journal.transaction(() => {
    for (const [idx, problem] of refusal.problems) journal.setRowOutcome(idx, 'rejected', problem);
    journal.setClaimProblem(claim.claim_key, refusal.claimProblem, 'rejected');
  });
  return false;
}

/**
 * The claim exists: rows whose case it lacks (a claim created earlier without them) are refused.
 * One transaction, with the create's `attempts`; with `finish` (nothing is filed) the claim's
 * other cases are created and the claim done in it too, as fileCases would record them next
 * (no remote call comes between, so nothing is lost by skipping the `created` step). Returns
 * whether the claim is done.
 */
function recordCreated(
  journal: Journal,
  key: string,
  claimId: string,
  rows: readonly RowRecord[],
  caseIds: ReadonlySet<string>,
  options: { attempts: number; finish: boolean },
): boolean {
  const outcomes: { idx: number; outcome: string; problem: Partial<RowProblem> }[] = [];
  for (const row of rows) {
    if (row.case_id === null) continue;
    if (!caseIds.has(row.case_id)) {
      // The interface creates cases only with their claim (new_claim) or as version 1 cases: a case
      // cannot be added to a claim the service holds (docs/import.md, "Fixing and feeding back").
      outcomes.push({
        idx: row.idx,
        outcome: 'rejected',
        problem: {
          code: 'claim_exists_without_case',
          message:
            `case ${row.case_id}: expected in claim ${claimId}, got that claim at the service without it (created ` +
            `earlier); a case cannot be added to an existing claim: give the row a claim key of its own to send ` +
            `it as a new claim`,
        },
      });
    } else if (options.finish && row.outcome === null) {
      outcomes.push({ idx: row.idx, outcome: 'created', problem: { httpStatus: 201 } });
    }
  }
  journal.recordStep(key, {
    step: options.finish ? 'done' : 'created',
    httpStatus: 201,
    attempts: options.attempts,
    rows: outcomes,
  });
  return options.finish;
}

/** Rows already invalid: the claim is not sent without them. */
function blockers(rows: readonly RowRecord[]): RowRecord[] {
  return rows.filter((row) => row.outcome === 'invalid');
}

/** The claim waits for its invalid rows to be fixed: its other rows say which lines to fix. */
function holdBack(journal: Journal, key: string, blocked: readonly RowRecord[]): void {
  const lines = blocked.map((row) => row.line);
  const which = lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(', ')}`;
  journal.setClaimProblem(
    key,
    {
      code: 'claim_incomplete',
      message: `claim not sent: ${which} of this claim ${lines.length === 1 ? 'is' : 'are'} invalid; fix and run again`,
    },
    'invalid',
  );
}

/** The body checked against the wire schema, ready to send; or undefined, its problems recorded and the claim held back. */
function checkOrReject(
  journal: Journal,
  key: string,
  rows: readonly RowRecord[],
  result: ClaimWire['check'],
): CheckedBody<typeof newClaimBody> | undefined {
  if (result.ok) return result.checked;
  const { problems } = result;
  journal.transaction(() => {
    for (const [idx, problem] of problems) journal.setRowOutcome(idx, 'invalid', problem);
  });
  holdBack(
    journal,
    key,
    rows.filter((row) => problems.has(row.idx)),
  );
  return undefined;
}
