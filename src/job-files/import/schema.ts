import { openLockedDatabase, type JournalDatabase } from '../../journal/open.js';
import { importMetaOf } from './meta.js';

/**
 * The journal is the job: every input row, every claim and the last step each reached, recorded
 * before and after every remote call. A crash loses nothing; a re-run reads the steps and
 * continues.
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
  file_ids TEXT,                 -- uploaded file ids of this row, ';'-separated (a fed-back row's: those the results reported)
  changed_fields TEXT,           -- mapping fields an update changed in the service's case on a feed-back, ';'-separated
  reported_case_id TEXT,         -- a fed-back row's case id, as the results line it came from reported it on its claim (proof the row is that case)
  warnings TEXT,                 -- what staging changed in what is sent (a card number masked: 'card_number_masked: field;field')
  same_row TEXT,                 -- a digest of the staged cells: identical rows are one dispute (docs/import.md, "Duplicates")
  same_transaction TEXT,         -- [arn, amount] as mapped: the same transaction is one dispute, unless the mapping says otherwise
  reported_created INTEGER,      -- 1: a fed-back row whose claim its results line reported created (never a duplicate)
  outcome TEXT,                  -- a row-level outcome: invalid (stage, evidence), filed, not_filed, created, skipped, duplicate
  error_code TEXT,
  error_message TEXT,
  error_field TEXT,
  http_status INTEGER
);
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
-- With --shard: the other shards' rows that name a transaction, so that a dispute is one shard's
-- whichever shard its earlier line fell in (src/import/journal/duplicates.ts).
CREATE TABLE IF NOT EXISTS other_shard_rows (idx INTEGER PRIMARY KEY, line INTEGER NOT NULL, same_transaction TEXT NOT NULL, reported_created INTEGER NOT NULL);
-- Kept through --restart: evidence uploaded once per content and category for the life of the
-- journal, and every claim id a create was ever sent for (looked up before it is sent again).
CREATE TABLE IF NOT EXISTS uploads (sha256 TEXT NOT NULL, category TEXT NOT NULL, file_id TEXT NOT NULL, PRIMARY KEY (sha256, category));
CREATE TABLE IF NOT EXISTS sent_claims (claim_id TEXT PRIMARY KEY);
`;

/**
 * The rows' indexes: a claim's rows, and a case id used once. Staging drops them and builds them
 * when its last row is in: kept up row by row they were most of the journal's cost per row, and
 * built at the end from the whole table they cost a sort.
 */
export const rowIndexNames = ['rows_by_claim', 'rows_by_case_id'] as const;
const claimRowsIndex = 'CREATE INDEX IF NOT EXISTS rows_by_claim ON rows (claim_key, idx);';
const rowIndexes = `
${claimRowsIndex}
CREATE UNIQUE INDEX IF NOT EXISTS rows_by_case_id ON rows (case_id) WHERE case_id IS NOT NULL;
`;

/**
 * A claim's rows found by the index while staging goes on: claims are sent while later rows are
 * staged, and each is read by its key (src/import/stage/index.ts).
 */
export function createClaimRowsIndex(database: JournalDatabase): void {
  database.exec(claimRowsIndex);
}

/** Builds the rows' indexes where they are missing (a journal staged while they were kept up row by row has them). */
export function createRowIndexes(database: JournalDatabase): void {
  database.exec(rowIndexes);
}

export function openJournalDatabase(file: string): JournalDatabase {
  const database = openLockedDatabase(file, 'an import journal');
  try {
    database.exec(schema);
    addMissingColumns(database);
    if (!stagingInterrupted(database, file)) createRowIndexes(database);
  } catch (error) {
    // A journal refused here (its meta damaged) is left as it was, and unlocked.
    database.close();
    throw error;
  }
  return database;
}

/**
 * Rows written by a staging that never finished: without their indexes (dropped while staging),
 * and perhaps with a case id twice (found when staging ends). Building the indexes here would
 * cost a sort of every row, or fail on such a case id; the import stages the journal again.
 */
function stagingInterrupted(database: JournalDatabase, file: string): boolean {
  const staged = importMetaOf(database, file).get('staged');
  return staged !== true && database.prepare('SELECT 1 FROM rows LIMIT 1').get() !== undefined;
}

/**
 * Columns added since format 2 was first written, added to a journal made before them: a job in
 * flight across an upgrade resumes instead of being refused (its rows simply have none yet).
 */
function addMissingColumns(database: JournalDatabase): void {
  const rowColumns = new Set(
    (database.prepare('PRAGMA table_info(rows)').all() as { name: string }[]).map((column) => column.name),
  );
  if (!rowColumns.has('changed_fields')) database.exec('ALTER TABLE rows ADD COLUMN changed_fields TEXT');
  if (!rowColumns.has('reported_case_id')) database.exec('ALTER TABLE rows ADD COLUMN reported_case_id TEXT');
  if (!rowColumns.has('warnings')) database.exec('ALTER TABLE rows ADD COLUMN warnings TEXT');
  for (const column of ['same_row TEXT', 'same_transaction TEXT', 'reported_created INTEGER'])
    if (!rowColumns.has(column.split(' ')[0] ?? '')) database.exec(`ALTER TABLE rows ADD COLUMN ${column}`);
}
