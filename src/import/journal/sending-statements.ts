import type { Statement } from 'better-sqlite3';
import type { ClaimRecord, RowRecord } from '../../job-files/import/records.js';
import type { JournalDatabase } from '../../journal/open.js';
import { arrayRecords } from '../../job-files/import/array-records.js';

/**
 * The statements the sending phase runs for every claim, shaped for what they cost: claims and
 * their rows read as arrays and named in one object literal (better-sqlite3 builds an object
 * column by column otherwise: about a third of the read), the filing's rows as the two columns it
 * needs, whether a claim was sent before in one statement instead of two, a claim's new step and
 * its attempts in one update, a row's outcome bound by position (binding named parameters from an
 * object costs more), and the group commit's BEGIN and COMMIT prepared once rather than parsed at
 * every commit.
 */
export interface SendingStatements {
  /** Claims not yet final, in input order of their first row, one page after `afterIdx`. */
  pendingClaims(afterIdx: number, limit: number): ClaimRecord[];
  rowsOf(claimKey: string): RowRecord[];
  /**
   * The rows of the claims `pendingClaims` gives whose first row is after `afterIdx` and at most
   * `throughIdx`, by claim key, each claim's in input order: one statement for a page of claims
   * instead of one per claim (a dry run of 100,000 rows read its claims' rows in 1.3 s one claim
   * at a time, 0.25 s a page at a time).
   */
  rowsOfPendingClaims(afterIdx: number, throughIdx: number): Map<string, RowRecord[]>;
  /** The claim's rows still to file, with their case ids: no more than the filing needs of its rows. */
  casesToFile(claimKey: string): CaseToFile[];
  /** `sent`: the claim's flag; `recorded`: its id is among those ever sent (Journal.sentBefore). */
  sentBefore(claimKey: string, claimId: string): { sent: boolean; recorded: boolean };
  /** A claim's step, its answer's status (kept when undefined) and `attempts` more, its problem cleared. */
  setStepAddingAttempts(claimKey: string, step: string, httpStatus: number | undefined, attempts: number): void;
  /** A row's outcome and its problem (nulls where none). */
  setRowOutcome(
    idx: number,
    outcome: string,
    code: string | null,
    message: string | null,
    field: string | null,
    httpStatus: number | null,
  ): void;
  readonly begin: Statement;
  readonly commit: Statement;
}

/** A row whose case is to be filed. */
export interface CaseToFile {
  readonly idx: number;
  readonly case_id: string;
}

const claimColumns = arrayRecords<ClaimRecord>()([
  'claim_key',
  'claim_id',
  'first_idx',
  'first_line',
  'shared_json',
  'rows',
  'step',
  'sent',
  'attempts',
  'http_status',
  'error_code',
  'error_message',
  'error_field',
]);

const rowColumns = arrayRecords<RowRecord>()([
  'idx',
  'line',
  'source',
  'claim_key',
  'ordinal',
  'case_id',
  'case_json',
  'evidence_json',
  'file_ids',
  'changed_fields',
  'reported_case_id',
  'warnings',
  'outcome',
  'error_code',
  'error_message',
  'error_field',
  'http_status',
]);

const notFinal = "step NOT IN ('done', 'invalid', 'rejected', 'valid')";

export function prepareSendingStatements(database: JournalDatabase): SendingStatements {
  const pendingClaims = database
    .prepare(
      `SELECT ${claimColumns.names.join(', ')} FROM claims WHERE first_idx > ? AND ${notFinal} ` +
        'ORDER BY first_idx LIMIT ?',
    )
    .raw();
  const rowsOfPendingClaims = database
    .prepare(
      `SELECT ${rowColumns.names.map((name) => `r.${name}`).join(', ')} FROM claims c ` +
        `JOIN rows r ON r.claim_key = c.claim_key WHERE c.first_idx > ? AND c.first_idx <= ? AND c.${notFinal} ` +
        'ORDER BY c.first_idx, r.idx',
    )
    .raw();
  const rowsOf = database
    .prepare(`SELECT ${rowColumns.names.join(', ')} FROM rows WHERE claim_key = ? ORDER BY idx`)
    .raw();
  const casesToFile = database
    .prepare(
      'SELECT idx, case_id FROM rows WHERE claim_key = ? AND outcome IS NULL AND case_id IS NOT NULL ORDER BY idx',
    )
    .raw();
  // One row whether or not the claim is there (sent is null when it is not).
  const sentBefore = database
    .prepare(
      'SELECT (SELECT sent FROM claims WHERE claim_key = ?), EXISTS (SELECT 1 FROM sent_claims WHERE claim_id = ?)',
    )
    .raw();
  const setStep = database.prepare(
    'UPDATE claims SET step = ?, http_status = coalesce(?, http_status), attempts = attempts + ?, ' +
      'error_code = NULL, error_message = NULL, error_field = NULL WHERE claim_key = ?',
  );
  const setRowOutcome = database.prepare(
    'UPDATE rows SET outcome = ?, error_code = ?, error_message = ?, error_field = ?, http_status = ? WHERE idx = ?',
  );
  return {
    pendingClaims: (afterIdx, limit) => (pendingClaims.all(afterIdx, limit) as unknown[][]).map(claimColumns.recordOf),
    rowsOf: (claimKey) => (rowsOf.all(claimKey) as unknown[][]).map(rowColumns.recordOf),
    rowsOfPendingClaims: (afterIdx, throughIdx) => {
      const byClaim = new Map<string, RowRecord[]>();
      for (const values of rowsOfPendingClaims.all(afterIdx, throughIdx) as unknown[][]) {
        const row = rowColumns.recordOf(values);
        const key = row.claim_key ?? '';
        const rows = byClaim.get(key);
        if (rows === undefined) byClaim.set(key, [row]);
        else rows.push(row);
      }
      return byClaim;
    },
    casesToFile: (claimKey) =>
      (casesToFile.all(claimKey) as [number, string][]).map(([idx, caseId]) => ({ idx, case_id: caseId })),
    sentBefore: (claimKey, claimId) => {
      const [sent, recorded] = sentBefore.get(claimKey, claimId) as [number | null, number];
      return { sent: sent === 1, recorded: recorded === 1 };
    },
    setStepAddingAttempts: (claimKey, step, httpStatus, attempts) => {
      setStep.run(step, httpStatus ?? null, attempts, claimKey);
    },
    setRowOutcome: (idx, outcome, code, message, field, httpStatus) => {
      setRowOutcome.run(outcome, code, message, field, httpStatus, idx);
    },
    begin: database.prepare('BEGIN IMMEDIATE'),
    commit: database.prepare('COMMIT'),
  };
}
