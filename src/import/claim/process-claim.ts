import type { Logger } from 'pino';
import type { ClaimsClient } from '../../api/client/index.js';
import type { ClaimRecord, Journal, RowProblem, RowRecord } from '../journal/journal.js';
import type { CheckedBody } from '../../api/client/request-parts.js';
import type { Claim, newClaimBody } from '../../api/schemas/claim.js';
import type { ClaimBody } from './body.js';
import { claimWire, type ClaimWire } from './wire-body.js';
import { prepareClaim, type ClaimAhead, type PreparedClaim } from './prepare-ahead.js';
import { checkClaimEvidence, type CheckedFile, type EvidenceUploads } from './evidence.js';
import { fileClaim, type FilingResult } from './file.js';
import { isRefusal, settle } from '../../api/client/settle.js';
import { submitClaim } from './submit.js';
import { claimOwnership, intendedFromRows, withdrawnRefusal } from './identity.js';
import { applyFixes, recordDryRunFixes } from '../update/apply-fixes.js';

export interface ClaimWork {
  journal: Journal;
  /** Absent in a dry run: everything is checked, nothing is sent. */
  client: ClaimsClient | undefined;
  /**
   * A dry run's reads, when a service is named: a fed-back claim the service holds is retrieved
   * and compared, to show what the run would update. Never used to write.
   */
  reader?: ClaimsClient | undefined;
  uploads: EvidenceUploads | undefined;
  evidenceDir: string;
  fileMode: 'none' | 'auto' | 'chargeback';
  /**
   * This process staged the journal (not a resumed run): its rows' JSON passed this code's wire
   * check, so a claim's body is spliced from it (wire-body.ts). Absent: built and checked whole.
   */
  stagedHere?: boolean | undefined;
  /** Receives each claim's body (`--payloads`), before it is sent. */
  onPayload?: ((body: ClaimBody) => Promise<void>) | undefined;
  logger: Logger;
}

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
    const created = await createOnce(
      claim,
      ahead?.take() ?? prepareClaim(claim, work.journal, work.stagedHere === true),
      work,
    );
    // Not filed (--file-mode none): recorded done with the create, nothing left to do.
    if (created === undefined || created.done) return;
    step = 'created';
    settleFirst = created.existing;
    // Retrieved a moment ago: the filing reads the cases' statuses from it, not from a second retrieve.
    found = created.found;
  }
  await fileCases(step, claim, work.journal.rowsOf(claim.claim_key), work, settleFirst, found);
}

/**
 * Evidence, then the create, unless something stops the claim first. Set when the claim exists
 * in the service afterwards (`existing`: it was found, not made now; `done`: nothing is to be
 * filed, and the claim was recorded done with its creation); undefined when it is held back,
 * refused, or only checked (dry run).
 */
async function createOnce(
  claim: ClaimRecord,
  prepared: PreparedClaim,
  work: ClaimWork,
): Promise<{ existing: boolean; done: boolean; found?: Claim } | undefined> {
  const { journal } = work;
  const { rows, wire } = prepared;
  const key = claim.claim_key;
  const blocked = blockers(rows);
  if (blocked.length > 0 || claim.claim_id === null) {
    holdBack(journal, key, blocked);
    return undefined;
  }
  const named = { ...claim, claim_id: claim.claim_id };
  const held =
    claim.sent === 1 && work.client === undefined && work.reader !== undefined
      ? await settle(work.reader, named.claim_id)
      : undefined;
  if (held !== undefined) {
    if (!provenOurs(held, claim, rows, journal)) return undefined;
    await recordDryRunFixes(held, named, rows, work);
    journal.setStep(key, 'valid');
    return undefined;
  }
  // Reported created by an earlier run (or this journal): a retrieve settles it before any
  // file is uploaded or create sent.
  const found = claim.sent === 1 && work.client !== undefined ? await settle(work.client, named.claim_id) : undefined;
  if (found !== undefined) {
    // Another dispute under our id (a key that met another file's) is never adopted nor updated.
    if (!provenOurs(found, claim, rows, journal)) return undefined;
    // Fixes fed back reach the claim before it is filed again; an unchanged claim gets no request.
    if (work.client !== undefined && work.uploads !== undefined)
      await applyFixes(found, named, rows, { ...work, client: work.client, uploads: work.uploads });
    const done = recordCreated(
      journal,
      key,
      named.claim_id,
      journal.rowsOf(key),
      new Set((found.cases ?? []).map((item) => item.case_id)),
      { attempts: 0, finish: work.fileMode === 'none' },
    );
    return { existing: true, done, found };
  }
  // Prepared ahead: no row names a file, so there is nothing to check or upload.
  const checked =
    wire === undefined
      ? await checkClaimEvidence(rows, work.evidenceDir)
      : { ok: true as const, filesByRow: new Map<number, CheckedFile[]>() };
  if (!checked.ok) {
    journal.transaction(() => {
      for (const [idx, problem] of checked.problems) journal.setRowOutcome(idx, 'invalid', problem);
    });
    holdBack(
      journal,
      key,
      rows.filter((row) => checked.problems.has(row.idx)),
    );
    return undefined;
  }
  if (work.client === undefined || work.uploads === undefined) {
    // Dry run: file ids are not known; each file is named by its content's hash instead.
    const placeholders = new Map(
      [...checked.filesByRow].map(([idx, files]) => [idx, files.map((file) => `sha256_${file.sha256.slice(0, 32)}`)]),
    );
    const body = wire ?? claimWire(named, rows, placeholders, work.stagedHere === true);
    if (checkOrReject(journal, key, rows, body.check) === undefined) return undefined;
    await work.onPayload?.(body.body);
    journal.setStep(key, 'valid');
    return undefined;
  }
  const fileIds = await uploadAll(checked.filesByRow, work.uploads);
  if (!(fileIds instanceof Map)) {
    // The service refused a file (4xx): the row names it; the claim is not sent without it.
    journal.transaction(() => {
      journal.setRowOutcome(fileIds.idx, 'rejected', fileIds.problem);
      journal.setClaimProblem(
        key,
        {
          ...fileIds.problem,
          message: `claim not sent: line ${rows.find((row) => row.idx === fileIds.idx)?.line ?? '?'} has a file the service refused`,
        },
        'rejected',
      );
    });
    return undefined;
  }
  // A fed-back row's reported ids (a claim the service turned out not to hold) give way to this run's.
  const reported = new Set(rows.filter((row) => row.file_ids !== null).map((row) => row.idx));
  if ([...fileIds.values()].some((ids) => ids.length > 0) || reported.size > 0) {
    journal.transaction(() => {
      for (const [idx, ids] of fileIds)
        if (ids.length > 0 || reported.has(idx)) journal.setRowFileIds(idx, ids.join(';'));
    });
  }
  const body = wire ?? claimWire(named, rows, fileIds, work.stagedHere === true);
  const wireBody = checkOrReject(journal, key, rows, body.check);
  if (wireBody === undefined) return undefined;
  await work.onPayload?.(body.body);
  const outcome = await submitClaim(work.client, journal, key, body, rows, wireBody);
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
    finish: work.fileMode === 'none',
  });
  return { existing: outcome.existing, done };
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

/** Each row's file ids, or the row whose file the service refused and why. */
async function uploadAll(
  filesByRow: Map<number, CheckedFile[]>,
  uploads: EvidenceUploads,
): Promise<Map<number, string[]> | { idx: number; problem: RowProblem }> {
  const fileIds = new Map<number, string[]>();
  for (const [idx, files] of filesByRow) {
    const ids: string[] = [];
    for (const file of files) {
      try {
        ids.push(await uploads.fileIdFor(file));
      } catch (error) {
        if (!isRefusal(error)) throw error;
        return {
          idx,
          problem: {
            code: error.errors[0]?.code || error.code,
            message: error.errors[0]?.message || error.serviceMessage,
            field: `evidence.${file.column}`,
            httpStatus: error.status,
          },
        };
      }
    }
    fileIds.set(idx, ids);
  }
  return fileIds;
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
          message: `case ${row.case_id}: expected in claim ${claimId}, got that claim at the service without it (created earlier); a case cannot be added to an existing claim: give the row a claim key of its own to send it as a new claim`,
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

/** From `created` (or an interrupted `filing`): file the claim's cases, or stop at created. */
async function fileCases(
  step: ClaimRecord['step'],
  claim: ClaimRecord,
  rows: readonly RowRecord[],
  work: ClaimWork,
  settleFirst: boolean,
  found?: Claim,
): Promise<void> {
  const { journal } = work;
  const key = claim.claim_key;
  if (step !== 'created' && step !== 'filing') return;
  if (claim.claim_id === null || work.client === undefined) return;
  const cases = rows.filter((row) => row.outcome === null && row.case_id !== null);
  if (work.fileMode === 'none') {
    journal.transaction(() => {
      for (const row of cases) journal.setRowOutcome(row.idx, 'created', { httpStatus: 201 });
      journal.setStep(key, 'done');
    });
    return;
  }
  await journal.beginFiling(key);
  const filing = await fileClaim(
    work.client,
    claim.claim_id,
    cases.map((row) => row.case_id ?? ''),
    work.fileMode,
    settleFirst,
    found,
  );
  recordFiling(journal, key, cases, filing);
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

function recordFiling(journal: Journal, key: string, cases: readonly RowRecord[], filing: FilingResult): void {
  journal.transaction(() => {
    for (const row of cases) {
      const result = filing.get(row.case_id ?? '');
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
