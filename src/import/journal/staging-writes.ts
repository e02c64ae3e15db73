import type { OtherShardRecord, StagedRowRecord } from '../../job-files/import/records.js';
import { type JournalDatabase } from '../../journal/open.js';
import { createRowIndexes, rowIndexNames } from '../../job-files/import/schema.js';
import type { JournalStatements } from './statements.js';
import { codeOf } from '../../errors/coded-error.js';

export interface NewClaim {
  claimKey: string;
  claimId: string | null;
  firstIdx: number;
  firstLine: number;
  sharedJson: string;
  rows?: 0 | 1;
}

/**
 * What staging writes into the journal, claim by claim and row by row, inside the batch
 * transactions of src/import/stage/ (`journal.staging`).
 */
export class StagingWrites {
  constructor(private readonly statements: JournalStatements) {}

  /**
   * A new claim. `rows: 1` counts its first row in the same statement (that row's ordinal is 0),
   * which spares staging an update of the count for every claim.
   */
  insertClaim(claim: NewClaim): void {
    const { claimKey, claimId, firstIdx, firstLine, sharedJson, rows } = claim;
    this.statements.insertClaim.run(claimKey, claimId, firstIdx, firstLine, sharedJson, rows ?? 0);
  }

  /** Earlier runs reported this claim as created: retrieve it before any create is sent. */
  markSent(claimKey: string): void {
    this.statements.markSent.run(claimKey);
  }

  /** Sets a claim's count of rows (staging counts them in memory and writes the total once). */
  setClaimRows(claimKey: string, rows: number): void {
    this.statements.setClaimRows.run(rows, claimKey);
  }

  /** The first mapped row of a claim whose earlier rows did not map: it names the claim. */
  fillClaim(claimKey: string, claimId: string, sharedJson: string): void {
    this.statements.fillClaim.run(claimId, sharedJson, claimKey);
  }

  /**
   * A new claim, unless another claim has its id: false then, nothing written. The UNIQUE index
   * decides, so staging looks an owner up only when there is one.
   */
  insertClaimUnlessIdTaken(claim: NewClaim): boolean {
    return refusedAsDuplicate(() => {
      this.insertClaim(claim);
    });
  }

  /**
   * A row as it comes. Its case id is not checked here: while staging, the rows have no indexes
   * (`dropRowIndexes`), and `indexStagedRows` refuses a case id taken by an earlier row.
   */
  insertRow(row: StagedRowRecord): void {
    // Positional: binding a dozen named parameters from an object showed in staging's profile.
    this.statements.insertRow.run(
      row.idx,
      row.line,
      row.source,
      row.claim_key,
      row.ordinal,
      row.case_id,
      row.case_json,
      row.evidence_json,
      row.file_ids ?? null,
      row.reported_case_id ?? null,
      row.warnings ?? null,
      row.outcome,
      row.error_code,
      row.error_message,
      row.error_field,
      row.same_row ?? null,
      row.same_transaction ?? null,
      row.reported_created ?? 0,
    );
  }

  /** A row of another shard that names a transaction (--shard): only what tells its duplicates. */
  insertOtherShardRow(row: OtherShardRecord): void {
    this.statements.insertOtherShardRow.run(row.idx, row.line, row.same_transaction, row.reported_created);
  }
}

/**
 * Before staging's first row: the rows' indexes go, to be built from the whole table when
 * staging ends. Kept up row by row, they were most of what a row cost the journal.
 */
export function dropRowIndexes(database: JournalDatabase): void {
  for (const name of rowIndexNames) database.exec(`DROP INDEX IF EXISTS ${name}`);
}

/**
 * After staging's last row, in its transaction: a case id used by an earlier row is refused on
 * every later row, exactly as the UNIQUE index refused it when it was kept up row by row (the
 * row keeps its claim and place, loses its case, and is invalid), then the indexes are built.
 */
export function indexStagedRows(database: JournalDatabase): void {
  // Usually no case id is taken twice: the index is built once, and the query runs only when it fails.
  const built = refusedAsDuplicate(() => {
    createRowIndexes(database);
  });
  if (built) return;
  refuseTakenCaseIds(database);
  createRowIndexes(database);
}

/**
 * The rows staged so far, checked as `indexStagedRows` checks them at the end, without the index:
 * a case id is refused on its later rows only, so what this says of the rows checked stands
 * whatever rows come after them.
 */
export function refuseTakenCaseIds(database: JournalDatabase): void {
  database.prepare(refuseTakenCaseIdsSql).run();
}

// The message and field as src/import/stage/write.ts words a row's problem; SET reads the row as it was.
const refuseTakenCaseIdsSql = `
WITH later AS (
  SELECT idx FROM (SELECT idx, row_number() OVER (PARTITION BY case_id ORDER BY idx) AS place FROM rows WHERE case_id IS NOT NULL) WHERE place > 1
)
UPDATE rows SET
  case_id = NULL, case_json = NULL, evidence_json = NULL, file_ids = NULL, reported_case_id = NULL,
  outcome = 'invalid', error_code = 'case_id_duplicate', error_field = 'case.case_id',
  error_message = 'case id: expected a case id used once, got ' || case_id || ' again'
WHERE idx IN (SELECT idx FROM later)`;

/** Runs an insert; false when a UNIQUE index refused it, anything else thrown. */
function refusedAsDuplicate(insert: () => void): boolean {
  try {
    insert();
    return true;
  } catch (error) {
    if (codeOf(error) === 'SQLITE_CONSTRAINT_UNIQUE') return false;
    throw error;
  }
}
