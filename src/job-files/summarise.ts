import { outcomes } from './import/columns.js';
import { migrateOutcomes } from './migrate/columns.js';
import { withdrawOutcomes } from './withdraw/columns.js';
import type { ResultLine, UnreadableLine } from './read/read-results.js';

/** At most this many failed rows are kept for the HTML table; the rest are only counted. */
export const maxFailedRows = 5000;
export const maxTopErrors = 10;
export const maxMixedClaims = 20;

export interface ErrorCount {
  readonly code: string;
  readonly count: number;
  /** The first message seen with this code, as an example. */
  readonly example: string;
}

export interface MixedClaim {
  readonly claimKey: string;
  readonly claimId: string;
  readonly outcomes: readonly string[];
}

export interface Summary {
  readonly rows: number;
  readonly claims: number;
  readonly unreadable: number;
  /** Outcome → rows, in the contract's order, then any other value found. */
  readonly byOutcome: readonly (readonly [string, number])[];
  /** Error code → rows, most frequent first. */
  readonly byErrorCode: readonly ErrorCount[];
  readonly topErrors: readonly ErrorCount[];
  readonly mixedClaims: readonly MixedClaim[];
  readonly mixedClaimsTotal: number;
  readonly failedRows: readonly ResultLine[];
  readonly failedRowsTotal: number;
}

/**
 * Counts a results file line by line. Counts are maps of a few keys; mixed outcomes need per-claim
 * state, a map claim key → outcomes, which grows with the number of claims (a few hundred
 * thousand keys is tens of megabytes: fine for the exports this tool sees).
 */
export class Summariser {
  private rows = 0;
  private unreadable = 0;
  private readonly byOutcome = new Map<string, number>();
  private readonly byErrorCode = new Map<string, { count: number; example: string }>();
  private readonly claims = new Map<string, { claimId: string; outcomes: Set<string> }>();
  private readonly failedRows: ResultLine[] = [];
  private failedRowsTotal = 0;

  add(line: ResultLine | UnreadableLine): void {
    this.rows += 1;
    if (line.kind === 'unreadable') {
      this.unreadable += 1;
      this.countError(line.code, line.message);
      return;
    }
    this.byOutcome.set(line.outcome, (this.byOutcome.get(line.outcome) ?? 0) + 1);
    // An ok line with a code is a row set aside (skipped, duplicate): its code says why, it is no error.
    if (line.errorCode !== '' && !line.ok) this.countError(line.errorCode, line.errorMessage);
    // Rows without a claim key (their key cells were blank) belong to no claim.
    if (line.claimKey !== '') {
      const claim = this.claims.get(line.claimKey) ?? { claimId: '', outcomes: new Set<string>() };
      if (claim.claimId === '') claim.claimId = line.claimId;
      claim.outcomes.add(line.outcome);
      this.claims.set(line.claimKey, claim);
    }
    if (!line.ok) {
      this.failedRowsTotal += 1;
      if (this.failedRows.length < maxFailedRows) this.failedRows.push(line);
    }
  }

  summary(): Summary {
    const byErrorCode = [...this.byErrorCode]
      .map(([code, { count, example }]) => ({ code, count, example }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
    const mixed: MixedClaim[] = [];
    let mixedClaimsTotal = 0;
    for (const [claimKey, claim] of this.claims) {
      if (claim.outcomes.size < 2) continue;
      mixedClaimsTotal += 1;
      if (mixed.length < maxMixedClaims)
        mixed.push({ claimKey, claimId: claim.claimId, outcomes: sortOutcomes([...claim.outcomes]) });
    }
    const byOutcome = sortOutcomes([...this.byOutcome.keys()]).map(
      (outcome) => [outcome, this.byOutcome.get(outcome) ?? 0] as const,
    );
    return {
      rows: this.rows,
      claims: this.claims.size,
      unreadable: this.unreadable,
      byOutcome,
      byErrorCode,
      topErrors: byErrorCode.slice(0, maxTopErrors),
      mixedClaims: mixed,
      mixedClaimsTotal,
      failedRows: this.failedRows,
      failedRowsTotal: this.failedRowsTotal,
    };
  }

  /** Every claim whose rows ended differently (`summary` lists the first 20): `review` filters by them. */
  mixedClaimKeys(): Set<string> {
    return new Set([...this.claims].filter(([, claim]) => claim.outcomes.size > 1).map(([claimKey]) => claimKey));
  }

  private countError(code: string, message: string): void {
    const entry = this.byErrorCode.get(code);
    if (entry === undefined) this.byErrorCode.set(code, { count: 1, example: message });
    else entry.count += 1;
  }
}

/**
 * The import's outcomes, then migrate-v1's, in their documented order; withdraw's own go before the
 * `failed` it shares with them, so that a withdraw job's read in its documented order.
 */
const outcomeOrder: readonly string[] = (() => {
  const importAndMigrate = [...new Set<string>([...outcomes, ...migrateOutcomes])];
  const failedAt = importAndMigrate.indexOf('failed');
  const withdrawOwn = withdrawOutcomes.filter((outcome) => !importAndMigrate.includes(outcome));
  return [...importAndMigrate.slice(0, failedAt), ...withdrawOwn, ...importAndMigrate.slice(failedAt)];
})();

/** The contracts' outcomes in their documented order, then unknown values alphabetically. */
function sortOutcomes(values: string[]): string[] {
  const rank = (value: string) => {
    const position = outcomeOrder.indexOf(value);
    return position === -1 ? outcomeOrder.length : position;
  };
  return values.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
