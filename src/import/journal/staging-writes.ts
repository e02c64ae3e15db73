import type { StagedRowRecord } from './records.js';
import type { JournalStatements } from './statements.js';

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
   * which spares staging an addRowToClaim update for every claim.
   */
  insertClaim(claim: NewClaim): void {
    this.statements.insertClaim.run(claim.claimKey, claim.claimId, claim.firstIdx, claim.firstLine, claim.sharedJson, claim.rows ?? 0);
  }

  /** Earlier runs reported this claim as created: retrieve it before any create is sent. */
  markSent(claimKey: string): void {
    this.statements.markSent.run(claimKey);
  }

  /** Counts one more row in the claim; returns the row's ordinal (0-based place in the claim). */
  addRowToClaim(claimKey: string): number {
    const { rows } = this.statements.countRow.get(claimKey) as { rows: number };
    return rows - 1;
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

  insertRow(row: StagedRowRecord): void {
    // Positional: binding a dozen named parameters from an object showed in staging's profile.
    this.statements.insertRow.run(
      row.idx, row.line, row.source, row.claim_key, row.ordinal, row.case_id, row.case_json, row.evidence_json, row.file_ids ?? null, row.reported_case_id ?? null, row.outcome, row.error_code, row.error_message, row.error_field,
    );
  }

  /** A row, unless its case id is another row's: false then, nothing written (the UNIQUE index decides). */
  insertRowUnlessCaseIdTaken(row: StagedRowRecord): boolean {
    return refusedAsDuplicate(() => {
      this.insertRow(row);
    });
  }
}

/** Runs an insert; false when a UNIQUE index refused it, anything else thrown. */
function refusedAsDuplicate(insert: () => void): boolean {
  try {
    insert();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return false;
    throw error;
  }
}
