import type { Journal } from '../journal/journal.js';

/** What staging needs of a claim while its rows come in. */
export interface StagingClaim {
  readonly claimKey: string;
  claimId: string | null;
  readonly firstLine: number;
  sharedJson: string;
  /** Rows counted so far; the journal holds `rowsSaved` until this claim is saved. */
  rows: number;
  rowsSaved: number;
}

/** Claims kept in memory; a claim's rows are usually near each other (and memory stays bounded). */
const defaultCapacity = 4096;

/**
 * The claims table as staging uses it: the most recently used claims are kept in memory, so a
 * claim's later rows need no lookup and no update each. A claim's row count is written when it
 * leaves the memory and by `saveAll` at the end; nothing else reads the count before staging ends,
 * and a journal whose staging did not end is staged again from the start.
 */
export class StagedClaims {
  /** In order of use, least recent first (a Map keeps insertion order). */
  private readonly recent = new Map<string, StagingClaim>();

  constructor(
    private readonly journal: Journal,
    private readonly capacity = defaultCapacity,
  ) {}

  get(claimKey: string): StagingClaim | undefined {
    const known = this.recent.get(claimKey);
    if (known !== undefined) {
      this.recent.delete(claimKey);
      this.recent.set(claimKey, known);
      return known;
    }
    const record = this.journal.claim(claimKey);
    if (record === undefined) return undefined;
    return this.remember({
      claimKey,
      claimId: record.claim_id,
      firstLine: record.first_line,
      sharedJson: record.shared_json,
      rows: record.rows,
      rowsSaved: record.rows,
    });
  }

  /**
   * A new claim, its first row counted (ordinal 0) when `firstRowCounted`. With an id, undefined
   * when another claim has that id: nothing is written then.
   */
  insert(
    claim: { claimKey: string; claimId: string | null; firstIdx: number; firstLine: number; sharedJson: string },
    firstRowCounted: boolean,
  ): StagingClaim | undefined {
    const rows: 0 | 1 = firstRowCounted ? 1 : 0;
    const inserted = { ...claim, rows } as const;
    if (claim.claimId === null) this.journal.staging.insertClaim(inserted);
    else if (!this.journal.staging.insertClaimUnlessIdTaken(inserted)) return undefined;
    return this.remember({
      claimKey: claim.claimKey,
      claimId: claim.claimId,
      firstLine: claim.firstLine,
      sharedJson: claim.sharedJson,
      rows,
      rowsSaved: rows,
    });
  }

  /** Counts one more row in the claim; returns the row's ordinal (0-based place in the claim). */
  addRow(claim: StagingClaim): number {
    claim.rows++;
    return claim.rows - 1;
  }

  /** The first mapped row of a claim whose earlier rows did not map: it names the claim. */
  fill(claim: StagingClaim, claimId: string, sharedJson: string): void {
    this.journal.staging.fillClaim(claim.claimKey, claimId, sharedJson);
    claim.claimId = claimId;
    claim.sharedJson = sharedJson;
  }

  /** Writes every count still in memory; call once, in a transaction, after the last row. */
  saveAll(): void {
    for (const claim of this.recent.values()) this.save(claim);
    this.recent.clear();
  }

  private remember(claim: StagingClaim): StagingClaim {
    this.recent.set(claim.claimKey, claim);
    if (this.recent.size > this.capacity) {
      const [oldest] = this.recent.values();
      if (oldest !== undefined) {
        this.save(oldest);
        this.recent.delete(oldest.claimKey);
      }
    }
    return claim;
  }

  private save(claim: StagingClaim): void {
    if (claim.rows === claim.rowsSaved) return;
    this.journal.staging.setClaimRows(claim.claimKey, claim.rows);
    claim.rowsSaved = claim.rows;
  }
}
