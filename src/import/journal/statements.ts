import type { Statement } from 'better-sqlite3';
import type { JournalDatabase } from '../../journal/open.js';

/**
 * Every statement of the Journal, prepared once: preparing costs more than running. What the
 * sending phase runs for every claim is in sending-statements.ts.
 */
export function prepareStatements(database: JournalDatabase): JournalStatements {
  return Object.fromEntries(
    Object.entries(statementSql).map(([name, sql]) => [name, database.prepare(sql)]),
  ) as JournalStatements;
}

export type JournalStatements = { readonly [Name in keyof typeof statementSql]: Statement };

const statementSql = {
  getClaim: 'SELECT * FROM claims WHERE claim_key = ?',
  getClaimById: 'SELECT * FROM claims WHERE claim_id = ?',
  insertClaim:
    'INSERT INTO claims (claim_key, claim_id, first_idx, first_line, shared_json, rows) VALUES (?, ?, ?, ?, ?, ?)',
  markSent: 'UPDATE claims SET sent = 1 WHERE claim_key = ?',
  unmarkSubmitting: "UPDATE claims SET step = 'staged', sent = ? WHERE claim_key = ?",
  forgetSent: 'DELETE FROM sent_claims WHERE claim_id = ?',
  setClaimRows: 'UPDATE claims SET rows = ? WHERE claim_key = ?',
  fillClaim: 'UPDATE claims SET claim_id = ?, shared_json = ? WHERE claim_key = ?',
  insertRow: `INSERT INTO rows (idx, line, source, claim_key, ordinal, case_id, case_json, evidence_json,
  file_ids, reported_case_id, warnings, outcome, error_code, error_message, error_field, same_row, same_transaction,
  reported_created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  insertOtherShardRow:
    'INSERT INTO other_shard_rows (idx, line, same_transaction, reported_created) VALUES (?, ?, ?, ?)',
  setStep:
    'UPDATE claims SET step = ?, http_status = coalesce(?, http_status), error_code = NULL, error_message = NULL, error_field = NULL WHERE claim_key = ?',
  setStepOnly: 'UPDATE claims SET step = ? WHERE claim_key = ?',
  markSubmitting: `UPDATE claims SET step = 'submitting', sent = 1 WHERE claim_key = ?`,
  addAttempts: 'UPDATE claims SET attempts = attempts + ? WHERE claim_key = ?',
  setClaimProblem:
    'UPDATE claims SET error_code = @code, error_message = @message, error_field = @field, http_status = coalesce(@status, http_status) WHERE claim_key = @key',
  setRowFileIds: 'UPDATE rows SET file_ids = ? WHERE idx = ?',
  setRowChangedFields: 'UPDATE rows SET changed_fields = ? WHERE idx = ?',
  getUpload: 'SELECT file_id FROM uploads WHERE sha256 = ? AND category = ?',
  putUpload: 'INSERT OR IGNORE INTO uploads (sha256, category, file_id) VALUES (?, ?, ?)',
  recordSent: 'INSERT OR IGNORE INTO sent_claims (claim_id) VALUES (?)',
  wasSent: 'SELECT 1 FROM sent_claims WHERE claim_id = ?',
  anySent: 'SELECT 1 FROM sent_claims LIMIT 1',
  holdsServiceData:
    `SELECT 1 FROM sent_claims UNION ALL SELECT 1 FROM uploads UNION ALL SELECT 1 FROM claims WHERE step ` +
    `NOT IN ('staged', 'invalid', 'valid') LIMIT 1`,
  pendingCount: `SELECT count(*) AS pending FROM claims WHERE step NOT IN ('done', 'invalid', 'rejected', 'valid')`,
  counts: 'SELECT (SELECT count(*) FROM rows) AS rows, (SELECT count(*) FROM claims) AS claims',
  // A claim's rows share its outcome (a claim is sent, or held back, whole); pending: none yet.
  claimOutcomes: `SELECT outcome, count(*) AS count FROM (SELECT coalesce(min(r.outcome), 'pending') AS outcome
     FROM claims c LEFT JOIN rows r ON r.claim_key = c.claim_key GROUP BY c.claim_key) GROUP BY outcome`,
  // The progress line's running counts, the rows of one claim as it finishes...
  outcomesOf:
    'SELECT r.outcome AS outcome, c.step AS step FROM rows r JOIN claims c ON c.claim_key = r.claim_key WHERE r.claim_key = ?',
  // ...and, before sending, the rows already final: refused at staging, or of claims an earlier run finished.
  finalOutcomes: `SELECT r.outcome AS outcome, c.step AS step, count(*) AS count FROM rows r LEFT JOIN claims c ON c.claim_key = r.claim_key
     WHERE c.claim_key IS NULL OR c.step IN ('done', 'invalid', 'rejected', 'valid') GROUP BY r.outcome, c.step`,
};
