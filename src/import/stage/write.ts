import { derivedCaseId } from '../../job-files/claims/ids.js';
import type { ClaimRecord, Journal, RowProblem } from '../journal/journal.js';
import { indexStagedRows, refuseTakenCaseIds } from '../journal/staging-writes.js';
import { markDuplicateRows, settleClaimsOfDuplicates } from '../journal/duplicates.js';
import { firstDifference } from '../../job-files/claims/wire-fields.js';
import type { PreparedRow } from '../../staging/prepare-row.js';
import { StagedClaims, type StagingClaim } from './staged-claims.js';

/**
 * The journal side of staging (main thread): each prepared row into its claim, in input order, so
 * that ordinals, claim ownership and case ids are decided exactly as the rows come. Statements a
 * row needs are kept few: recent claims are held in memory (StagedClaims), and a claim's unique id
 * is enforced by the claims' UNIQUE index, looked up only when an insert is refused. The rows have
 * no index while staging: a row's case id is checked once the last row is in, by a query that
 * refuses it on every row after the first, as the index did.
 */
export class StageWriter {
  private readonly claims: StagedClaims;
  /** Whether this journal ever sent a create (kept through --restart); if not, no row needs the lookup. */
  private readonly anySent: boolean;

  constructor(private readonly journal: Journal) {
    this.claims = new StagedClaims(journal);
    this.anySent = journal.anySent();
  }

  write(row: PreparedRow): void {
    if (row.otherShard !== undefined) {
      this.journal.staging.insertOtherShardRow({
        idx: row.idx,
        line: row.line,
        same_transaction: row.otherShard.sameTransaction,
        reported_created: row.reportedCreated ? 1 : 0,
      });
      return;
    }
    // Not a row to import (`rows.only`): in no claim, nothing of it sent.
    if (row.skipped !== undefined) {
      this.journal.staging.insertRow({ ...this.record(row, null, null, row.skipped, null), outcome: 'skipped' });
      return;
    }
    if (row.claimKey === undefined) {
      this.insert(
        row,
        null,
        null,
        row.problem ?? { code: 'claim_key_missing', message: 'claim key: expected values, got a blank' },
      );
      return;
    }
    const key = row.claimKey;
    const claim = this.claims.get(key);
    if (row.mapped === undefined) {
      // A row that did not map still belongs to its claim, which must then not be sent without it.
      this.insert(row, key, this.claims.addRow(claim ?? this.unnamedClaim(row, key)), row.problem);
      return;
    }
    const { claimId, sharedJson } = row.mapped;
    // The claim's first row names it, counted as the claim is inserted (ordinal 0).
    const inserted =
      claim === undefined
        ? this.claims.insert({ claimKey: key, claimId, firstIdx: row.idx, firstLine: row.line, sharedJson }, true)
        : undefined;
    const conflict = inserted === undefined ? this.claimIdConflict(key, claim, claimId) : undefined;
    if (conflict !== undefined) {
      // Kept in its own claim, which is then held back whole (its id is taken).
      const ordinal = this.claims.addRow(claim ?? this.unnamedClaim(row, key));
      this.insert(row, key, ordinal, {
        code: 'claim_id_conflict',
        field: 'claim.id',
        message: `claim id: expected one claim key per claim id, got ${claimId}, already the id of the claim on line ${conflict.first_line}`,
      });
      return;
    }
    if (claim !== undefined && claim.claimId === null) this.claims.fill(claim, claimId, sharedJson);
    // Reported created (a results file fed back), or sent by this journal before a --restart.
    if (row.reportedCreated || (this.anySent && this.journal.wasSent(claimId))) this.journal.staging.markSent(key);
    const ordinal = claim === undefined ? 0 : this.claims.addRow(claim);
    const caseId = row.mapped.caseId ?? derivedCaseId(claimId, ordinal);
    const mismatch = claim === undefined ? undefined : sharedMismatch(claim, claimId, sharedJson);
    if (mismatch !== undefined) {
      this.insert(row, key, ordinal, mismatch);
      return;
    }
    // A case id an earlier row took is refused when staging ends (indexStagedRows), with the same words.
    this.journal.staging.insertRow(this.record(row, key, ordinal, undefined, caseId));
  }

  /**
   * In a transaction, while staging goes on: the rows staged so far checked as `finish` checks
   * them (duplicates, case ids taken), each row against the rows before it, so that the claims
   * whose last row is in can be sent. Their counts and first rows are set right by `finish`.
   */
  check(): void {
    markDuplicateRows(this.journal.database);
    refuseTakenCaseIds(this.journal.database);
  }

  /**
   * Call once, in a transaction, after the last row: the claims' counts, the rows that repeat an
   * earlier row's dispute taken out of their claims, then the rows' indexes.
   */
  finish(): void {
    this.claims.saveAll();
    const duplicates = markDuplicateRows(this.journal.database);
    indexStagedRows(this.journal.database);
    if (duplicates > 0) settleClaimsOfDuplicates(this.journal.database);
  }

  /** A claim for a row that cannot name it (no id): the claim is invalid, held back whole. */
  private unnamedClaim(row: PreparedRow, claimKey: string): StagingClaim {
    const claim = this.claims.insert(
      { claimKey, claimId: null, firstIdx: row.idx, firstLine: row.line, sharedJson: '' },
      false,
    );
    if (claim === undefined)
      throw new Error(`journal: expected a claim without an id to be inserted, got none for ${claimKey}`);
    return claim;
  }

  /** The claim that already owns `claimId` under another key, if any (the journal refused it, or the row's claim has another id). */
  private claimIdConflict(claimKey: string, claim: StagingClaim | undefined, claimId: string): ClaimRecord | undefined {
    if (claim?.claimId === claimId) return undefined;
    const owner = this.journal.claimById(claimId);
    return owner !== undefined && owner.claim_key !== claimKey ? owner : undefined;
  }

  private insert(
    row: PreparedRow,
    claimKey: string | null,
    ordinal: number | null,
    problem: RowProblem | undefined,
  ): void {
    this.journal.staging.insertRow(this.record(row, claimKey, ordinal, problem, null));
  }

  private record(
    row: PreparedRow,
    claimKey: string | null,
    ordinal: number | null,
    problem: RowProblem | undefined,
    caseId: string | null,
  ) {
    return {
      idx: row.idx,
      line: row.line,
      source: row.source,
      claim_key: claimKey,
      ordinal,
      case_id: problem ? null : caseId,
      case_json: problem ? null : (row.mapped?.caseJson ?? null),
      evidence_json: problem ? null : (row.mapped?.evidenceJson ?? '[]'),
      file_ids: problem ? null : (row.reportedFileIds ?? null),
      reported_case_id: problem ? null : (row.reportedCaseId ?? null),
      warnings: problem ? null : (row.warnings ?? null),
      outcome: problem ? 'invalid' : null,
      error_code: problem?.code ?? null,
      error_message: problem?.message ?? null,
      error_field: problem?.field ?? null,
      same_row: row.sameRow ?? null,
      same_transaction: row.sameTransaction ?? null,
      reported_created: row.reportedCreated ? (1 as const) : (0 as const),
    };
  }
}

/** A later row of a claim must carry its claim's id and shared fields, as its first row gave them. */
function sharedMismatch(claim: StagingClaim, claimId: string, sharedJson: string): RowProblem | undefined {
  if (claim.claimId === null) return undefined;
  const mismatch =
    claim.claimId !== claimId
      ? { field: 'claim.id', expected: claim.claimId, got: claimId }
      : claim.sharedJson === sharedJson
        ? undefined
        : firstDifference(JSON.parse(claim.sharedJson) as object, JSON.parse(sharedJson) as object);
  if (mismatch === undefined) return undefined;
  const field = mismatch.field === 'claim.id' ? mismatch.field : `shared.${mismatch.field}`;
  return {
    code: 'shared_field_mismatch',
    field,
    message: `${field}: expected ${mismatch.expected} as on line ${claim.firstLine} (the claim's first row), got ${mismatch.got}`,
  };
}
