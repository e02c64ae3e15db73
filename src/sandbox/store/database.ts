import Database from 'better-sqlite3';
import { codeOf } from '../../errors/coded-error.js';
import { isNotADatabase, NotADatabaseError, openOwnDatabase } from '../../files/own-database.js';

export type SandboxDatabase = Database.Database;

/**
 * The sandbox's storage. Every table is keyed by environment first: a `test_` key and a live key
 * never see each other's rows, and ids are unique per environment (a 409 must not reveal the
 * other environment's ids). `seq` orders lists newest first and anchors cursors.
 */
const schema = `
CREATE TABLE IF NOT EXISTS claims (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  environment TEXT NOT NULL,
  claim_id TEXT NOT NULL,
  status TEXT NOT NULL,
  created TEXT NOT NULL,
  updated TEXT NOT NULL,
  UNIQUE (environment, claim_id)
);
CREATE TABLE IF NOT EXISTS cases (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  environment TEXT NOT NULL,
  case_id TEXT NOT NULL,
  claim_id TEXT,
  api_version INTEGER NOT NULL,
  status TEXT NOT NULL,
  filed INTEGER NOT NULL DEFAULT 0,
  workflow_state TEXT,
  unavailable INTEGER NOT NULL DEFAULT 0,
  document TEXT NOT NULL,
  UNIQUE (environment, case_id)
);
CREATE INDEX IF NOT EXISTS cases_by_claim ON cases (environment, claim_id);
-- A deleted case leaves its place in the order behind, so a cursor naming it still works.
CREATE TABLE IF NOT EXISTS deleted_cases (
  seq INTEGER PRIMARY KEY,
  environment TEXT NOT NULL,
  case_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS deleted_cases_by_id ON deleted_cases (environment, case_id);
CREATE TABLE IF NOT EXISTS blobs (
  sha256 TEXT PRIMARY KEY,
  bytes BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS files (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  environment TEXT NOT NULL,
  file_id TEXT NOT NULL,
  category TEXT NOT NULL,
  type TEXT NOT NULL,
  sha256 TEXT NOT NULL REFERENCES blobs (sha256),
  size INTEGER NOT NULL,
  page_count INTEGER,
  created TEXT NOT NULL,
  UNIQUE (environment, file_id)
);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  environment TEXT NOT NULL,
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  case_id TEXT NOT NULL,
  created TEXT NOT NULL,
  UNIQUE (environment, event_id)
);
-- --outcomes: each filed case's path of network moves, and where it has got to; kept so that a
-- restarted sandbox goes on with it. One row per case, gone once its path is done or dropped.
CREATE TABLE IF NOT EXISTS outcome_paths (
  environment TEXT NOT NULL,
  case_id TEXT NOT NULL,
  -- When the next move is due on the sandbox clock (ms since the epoch).
  next_at_ms INTEGER NOT NULL,
  -- The next move's index in moves.
  step INTEGER NOT NULL,
  -- JSON: every move of the path, as drawn when the case was filed.
  moves TEXT NOT NULL,
  PRIMARY KEY (environment, case_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS outcome_paths_by_time ON outcome_paths (next_at_ms);
`;

/**
 * Opens (and creates) the database. WAL with synchronous=NORMAL: a committed transaction is in
 * the WAL file before the response is written, so it survives the process being killed (SIGKILL);
 * only a power cut could lose the last commits, which a local sandbox can afford.
 */
export function openDatabase(path: string): SandboxDatabase {
  // It keeps what jobs sent it, cardholders' names and statements: readable by the owner only, as a
  // journal is, never through a link (docs/data.md); SQLite gives its -wal and -shm files the same mode.
  const notADatabase = (reason: string, cause?: unknown) =>
    new NotADatabaseError(
      'SANDBOX_NOT_A_DATABASE',
      `${path}: expected the sandbox's database (SQLite), got a file that is not one or is damaged (${reason}): ` +
        'nothing was written to it; give another --sandbox-db (sandbox --db) or move it away',
      { cause },
    );
  const database = openOwnDatabase(path, (file) => new Database(file), notADatabase);
  try {
    database.pragma('journal_mode = WAL');
  } catch (error) {
    database.close();
    throw isNotADatabase(error) ? notADatabase(`SQLite: ${codeOf(error) ?? 'unreadable'}`, error) : error;
  }
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.exec(schema);
  return database;
}
