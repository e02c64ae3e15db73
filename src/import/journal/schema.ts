import Database from 'better-sqlite3';

export type JournalDatabase = Database.Database;

/** Bumped when the tables change: an older journal is refused rather than misread. */
export const journalFormat = '1';

/**
 * The journal is the job (architecture.md, "The pipeline"): every input row, every claim and the
 * last step each reached, recorded before and after every remote call. A crash loses nothing; a
 * re-run reads the steps and continues.
 */
const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- One line per input record (idx = input order), including rows that could not be read or mapped.
CREATE TABLE IF NOT EXISTS rows (
  idx INTEGER PRIMARY KEY,
  line INTEGER NOT NULL,
  source TEXT NOT NULL,          -- JSON array of the record's cells, unchanged
  claim_key TEXT,                -- null when the row has no usable key
  ordinal INTEGER,               -- the row's place among its claim's rows
  case_id TEXT,
  case_json TEXT,                -- the mapped case, as sent in new_claim.cases[]
  evidence_json TEXT,            -- [{path, category, column}]
  file_ids TEXT,                 -- uploaded file ids of this row, ';'-separated
  outcome TEXT,                  -- a row-level outcome: invalid (stage, evidence), filed, not_filed, created
  error_code TEXT,
  error_message TEXT,
  error_field TEXT,
  http_status INTEGER
);
CREATE INDEX IF NOT EXISTS rows_by_claim ON rows (claim_key, idx);
CREATE UNIQUE INDEX IF NOT EXISTS rows_by_case_id ON rows (case_id) WHERE case_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS claims (
  claim_key TEXT PRIMARY KEY,
  claim_id TEXT UNIQUE,          -- null while no row of the claim has mapped (the claim is invalid)
  first_idx INTEGER NOT NULL,
  first_line INTEGER NOT NULL,
  shared_json TEXT NOT NULL,     -- the claim-level fields of its first row
  rows INTEGER NOT NULL DEFAULT 0,
  -- staged | submitting | created | filing | done | invalid | rejected | valid
  step TEXT NOT NULL DEFAULT 'staged',
  sent INTEGER NOT NULL DEFAULT 0,  -- a create left this process: settle with a retrieve before sending again
  attempts INTEGER NOT NULL DEFAULT 0,
  http_status INTEGER,
  error_code TEXT,
  error_message TEXT,
  error_field TEXT
);
CREATE INDEX IF NOT EXISTS claims_by_first_idx ON claims (first_idx);
-- Evidence uploaded once per content (sha256) for the life of the journal.
CREATE TABLE IF NOT EXISTS uploads (sha256 TEXT PRIMARY KEY, file_id TEXT NOT NULL);
`;

export function openJournalDatabase(file: string): JournalDatabase {
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  // NORMAL in WAL mode survives a process crash (SIGKILL); only an OS crash may lose the last commits.
  database.pragma('synchronous = NORMAL');
  database.exec(schema);
  return database;
}
