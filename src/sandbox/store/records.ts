import type { Statement } from 'better-sqlite3';
import type { SandboxDatabase } from './database.js';

/** Rows of the sandbox's tables, and the reads and writes the handlers need. */

export type Environment = 'sandbox' | 'production';

export interface ClaimRow {
  seq: number;
  environment: Environment;
  claim_id: string;
  status: string;
  created: string;
  updated: string;
}

export interface CaseRow {
  seq: number;
  environment: Environment;
  case_id: string;
  claim_id: string | null;
  api_version: 1 | 2;
  status: string;
  /** 1 once the case has been filed with the card network: it can no longer be changed or deleted. */
  filed: 0 | 1;
  /** `running` while run_workflow evaluates, `queued` or `held` when the rules said so. */
  workflow_state: string | null;
  unavailable: 0 | 1;
  /** The case as the API returns it (v2 shape, or v1 shape for v1 cases), JSON. */
  document: string;
}

export type CaseDocument = Record<string, unknown>;

const statementsOf = new WeakMap<SandboxDatabase, Map<string, Statement>>();

/**
 * The database's prepared statement for `sql`, prepared once: preparing costs more than running
 * these small statements (one create runs several). Only for get/run/all, never iterate, so a
 * statement is never busy when it is used again.
 */
function statement(database: SandboxDatabase, sql: string): Statement {
  let statements = statementsOf.get(database);
  if (statements === undefined) {
    statements = new Map();
    statementsOf.set(database, statements);
  }
  let prepared = statements.get(sql);
  if (prepared === undefined) {
    prepared = database.prepare(sql);
    statements.set(sql, prepared);
  }
  return prepared;
}

export function findClaim(database: SandboxDatabase, environment: Environment, claimId: string): ClaimRow | undefined {
  return statement(database, 'SELECT * FROM claims WHERE environment = ? AND claim_id = ?').get(
    environment,
    claimId,
  ) as ClaimRow | undefined;
}

/** Returns the new row's `seq`. */
export function insertClaim(database: SandboxDatabase, claim: Omit<ClaimRow, 'seq'>): number {
  const sql = 'INSERT INTO claims (environment, claim_id, status, created, updated) VALUES (?, ?, ?, ?, ?)';
  return insertedSeq(database, sql, claim.environment, claim.claim_id, claim.status, claim.created, claim.updated);
}

/** Runs an insert and returns the new row's `seq`. */
function insertedSeq(database: SandboxDatabase, sql: string, ...values: unknown[]): number {
  // Bound by position: better-sqlite3 binds a named object several times slower.
  return Number(statement(database, sql).run(...values).lastInsertRowid);
}

/** A row just inserted, by its table and `seq`: what an insert-only unit takes back (SandboxCore.insertOnly). */
export interface InsertedRow {
  table: 'claims' | 'cases' | 'events';
  seq: number;
}

export function deleteInserted(database: SandboxDatabase, row: InsertedRow): void {
  statement(database, `DELETE FROM ${row.table} WHERE seq = ?`).run(row.seq);
}

export function updateClaim(database: SandboxDatabase, claim: ClaimRow): void {
  statement(database, 'UPDATE claims SET status = @status, updated = @updated WHERE seq = @seq').run(claim);
}

export function findCase(database: SandboxDatabase, environment: Environment, caseId: string): CaseRow | undefined {
  return statement(database, 'SELECT * FROM cases WHERE environment = ? AND case_id = ?').get(environment, caseId) as
    CaseRow | undefined;
}

export function casesOfClaim(database: SandboxDatabase, environment: Environment, claimId: string): CaseRow[] {
  return statement(database, 'SELECT * FROM cases WHERE environment = ? AND claim_id = ? ORDER BY seq').all(
    environment,
    claimId,
  ) as CaseRow[];
}

/** Returns the new row's `seq`. */
export function insertCase(database: SandboxDatabase, row: Omit<CaseRow, 'seq'>): number {
  const sql =
    'INSERT INTO cases (environment, case_id, claim_id, api_version, status, filed, workflow_state, ' +
    'unavailable, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';
  return insertedSeq(
    database,
    sql,
    row.environment,
    row.case_id,
    row.claim_id,
    row.api_version,
    row.status,
    row.filed,
    row.workflow_state,
    row.unavailable,
    row.document,
  );
}

/** Writes back every mutable column; the document is kept in step with the columns. */
export function saveCase(database: SandboxDatabase, row: CaseRow): void {
  const document = { ...readDocument(row), status: row.status, claim_id: row.claim_id ?? undefined };
  statement(
    database,
    `UPDATE cases SET claim_id = @claim_id, status = @status, filed = @filed, workflow_state = @workflow_state,
       unavailable = @unavailable, document = @document WHERE seq = @seq`,
  ).run({ ...row, document: JSON.stringify(document) });
  row.document = JSON.stringify(document);
}

/**
 * Writes a case's new status and document, nothing else: a network move of --outcomes. The
 * document is serialised once (saveCase parses it back to keep it in step with every column:
 * a fifth of a move's time over 100,000 cases).
 */
export function saveCaseStatus(database: SandboxDatabase, row: CaseRow, status: string, document: CaseDocument): void {
  row.status = status;
  row.document = JSON.stringify({ ...document, status });
  statement(database, 'UPDATE cases SET status = ?, document = ? WHERE seq = ?').run(status, row.document, row.seq);
}

export function deleteCaseRow(database: SandboxDatabase, row: CaseRow): void {
  statement(database, 'INSERT OR REPLACE INTO deleted_cases (seq, environment, case_id) VALUES (?, ?, ?)').run(
    row.seq,
    row.environment,
    row.case_id,
  );
  statement(database, 'DELETE FROM cases WHERE seq = ?').run(row.seq);
}

export function readDocument(row: CaseRow): CaseDocument {
  return JSON.parse(row.document) as CaseDocument;
}

export function writeDocument(row: CaseRow, document: CaseDocument): void {
  row.document = JSON.stringify(document);
}

export interface EventRow {
  seq: number;
  environment: Environment;
  event_id: string;
  type: string;
  case_id: string;
  created: string;
}

/** Returns the new row's `seq`. */
export function insertEvent(database: SandboxDatabase, event: Omit<EventRow, 'seq'>): number {
  const sql = 'INSERT INTO events (environment, event_id, type, case_id, created) VALUES (?, ?, ?, ?, ?)';
  return insertedSeq(database, sql, event.environment, event.event_id, event.type, event.case_id, event.created);
}

export interface FileRow {
  seq: number;
  environment: Environment;
  file_id: string;
  category: string;
  type: string;
  sha256: string;
  size: number;
  page_count: number | null;
  created: string;
}

/** Whether a content's row exists; it is inserted only once its content is stored (store/blobs.ts). */
export function blobStored(database: SandboxDatabase, sha256: string): boolean {
  return statement(database, 'SELECT 1 FROM blobs WHERE sha256 = ?').get(sha256) !== undefined;
}

/** Content-addressed: the same bytes uploaded twice are stored once. */
export function insertFile(database: SandboxDatabase, file: Omit<FileRow, 'seq'>, bytes: Buffer): void {
  statement(database, 'INSERT OR IGNORE INTO blobs (sha256, bytes) VALUES (?, ?)').run(file.sha256, bytes);
  statement(
    database,
    `INSERT INTO files (environment, file_id, category, type, sha256, size, page_count, created)
       VALUES (@environment, @file_id, @category, @type, @sha256, @size, @page_count, @created)`,
  ).run(file);
}

export function findFile(database: SandboxDatabase, environment: Environment, fileId: string): FileRow | undefined {
  return statement(database, 'SELECT * FROM files WHERE environment = ? AND file_id = ?').get(environment, fileId) as
    FileRow | undefined;
}
