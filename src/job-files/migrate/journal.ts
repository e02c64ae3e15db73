import type Database from 'better-sqlite3';
import { JobJournal, openJobDatabase } from '../../journal/job-journal.js';
import { expectFormat, expectStaged } from '../../journal/snapshot.js';
import { migrateMetaFields, type MigrateMeta } from './meta.js';

/** Bumped when the table changes: an older journal is refused rather than misread. */
export const migrateJournalFormat = '1';

/**
 * Where one case of the migration has got to. A claim's step is the step of each of its cases
 * that is not `skipped` (they move together).
 * - staged: listed, grouped, nothing sent
 * - submitting: a create may have left this process: settle with a retrieve before sending again
 * - migrated | rejected | valid | skipped: final
 * - failed: the service failed (after the client's retries); tried again by the next run
 */
export type MigrateStep = 'staged' | 'submitting' | 'migrated' | 'skipped' | 'failed' | 'rejected' | 'valid';

export interface MigrateRow {
  idx: number;
  case_id: string;
  group_key: string;
  claim_id: string;
  step: MigrateStep;
  attempts: number;
  error_code: string | null;
  error_message: string | null;
  http_status: number | null;
}

export interface StagedCase {
  idx: number;
  caseId: string;
  groupKey: string;
  claimId: string;
  skipped: boolean;
}

export interface Problem {
  code: string;
  message: string;
  httpStatus?: number | undefined;
}

const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- One row per v1 case, idx = its place in the listing.
CREATE TABLE IF NOT EXISTS cases (
  idx INTEGER PRIMARY KEY,
  case_id TEXT NOT NULL UNIQUE,
  group_key TEXT NOT NULL,
  claim_id TEXT NOT NULL,        -- the claim it goes into, or the claim it already belonged to (skipped)
  step TEXT NOT NULL DEFAULT 'staged',
  attempts INTEGER NOT NULL DEFAULT 0,
  error_code TEXT,
  error_message TEXT,
  http_status INTEGER
);
CREATE INDEX IF NOT EXISTS cases_by_group ON cases (group_key, idx);
`;

/** The migration's job journal: the exclusive lock and WAL settings of the import's (src/journal/open.ts). */
export class MigrateJournal extends JobJournal<typeof migrateMetaFields> {
  constructor(file: string) {
    super(openJobDatabase(file, schema, 'a migrate-v1 journal'), migrateMetaFields, file);
  }

  /**
   * Forgets everything (--restart, or a staging that did not finish: nothing was sent yet) but the
   * service the journal belongs to (service-binding.ts records it).
   */
  reset(): void {
    this.empty(['cases'], { meta: true });
  }

  /** One page of the listing, in one transaction. */
  stage(rows: readonly StagedCase[]): void {
    const insert = this.database.prepare(
      'INSERT OR IGNORE INTO cases (idx, case_id, group_key, claim_id, step) VALUES (?, ?, ?, ?, ?)',
    );
    this.database.transaction(() => {
      for (const row of rows)
        insert.run(row.idx, row.caseId, row.groupKey, row.claimId, row.skipped ? 'skipped' : 'staged');
    })();
  }

  count(): number {
    return (this.database.prepare('SELECT count(*) AS n FROM cases').get() as { n: number }).n;
  }

  /** Claims still to do (staged, submitting, or failed by an earlier run), in listing order. */
  pendingGroups(): string[] {
    const rows = this.database
      .prepare(
        "SELECT group_key, min(idx) AS first FROM cases WHERE step IN ('staged', 'submitting', 'failed') GROUP BY group_key ORDER BY first",
      )
      .all() as { group_key: string }[];
    return rows.map((row) => row.group_key);
  }

  /** The group's cases that are not skipped, in listing order. */
  groupRows(groupKey: string): MigrateRow[] {
    return this.database
      .prepare("SELECT * FROM cases WHERE group_key = ? AND step <> 'skipped' ORDER BY idx")
      .all(groupKey) as MigrateRow[];
  }

  /** Sets the step of the group's cases that are not skipped. */
  setGroupStep(groupKey: string, step: MigrateStep, problem?: Problem): void {
    this.database
      .prepare(
        "UPDATE cases SET step = ?, error_code = ?, error_message = ?, http_status = ? WHERE group_key = ? AND step <> 'skipped'",
      )
      .run(step, problem?.code ?? null, problem?.message ?? null, problem?.httpStatus ?? null, groupKey);
  }

  addAttempts(groupKey: string, attempts: number): void {
    this.database
      .prepare("UPDATE cases SET attempts = attempts + ? WHERE group_key = ? AND step <> 'skipped'")
      .run(attempts, groupKey);
  }

  /** A case found in another claim once sending began: skipped, with that claim's id. */
  skip(caseId: string, existingClaimId: string): void {
    this.database
      .prepare(
        "UPDATE cases SET step = 'skipped', claim_id = ?, error_code = NULL, error_message = NULL, http_status = NULL WHERE case_id = ?",
      )
      .run(existingClaimId, caseId);
  }

  *rows(): Generator<MigrateRow> {
    yield* this.database.prepare('SELECT * FROM cases ORDER BY idx').iterate() as IterableIterator<MigrateRow>;
  }
}

/** A migrate-v1 journal of this version's format, staged whole (its format is inside the `settings` JSON). */
export function expectMigrateJournal(meta: MigrateMeta): void {
  expectFormat(meta.get('settings')?.format, migrateJournalFormat, 'a migrate-v1 journal');
  expectStaged(meta);
}

/**
 * A migrate-v1 journal's cases in listing order, from a connection the reader opened itself (a
 * private copy): how the report, withdraw, track and the review read a migration.
 */
export function migrateRowsOf(database: Database.Database): IterableIterator<MigrateRow> {
  return database.prepare('SELECT * FROM cases ORDER BY idx').iterate() as IterableIterator<MigrateRow>;
}
