import type { ColumnProfile } from './profile.js';
import type { Confidence, Sample } from './types.js';

export interface ClaimKeyGuess {
  /** The key column, or undefined when no column can be one (the draft then has a TODO). */
  readonly column: string | undefined;
  readonly confidence: Confidence;
  readonly evidence: string;
  /** Whether rows share claims (values repeat) or each row is a claim of its own. */
  readonly grouping: 'repeats' | 'one_row_per_claim' | 'none';
}

interface Candidate {
  readonly profile: ColumnProfile;
  readonly named: boolean;
  readonly distinct: number;
  /** Groups of two or more rows, and of those the ones whose rows agree on every shared column. */
  readonly groups: number;
  readonly agreeing: number;
  readonly disagreement: string | undefined;
}

/**
 * The claim key: a column whose values repeat across rows (rows of one dispute) and whose rows,
 * value by value, agree on every claim-level column (the mapping's `shared` fields must be the same
 * on each row of a claim). Among such columns: one whose header names a dispute reference first,
 * then the one with the most distinct values (the finest grouping: a card number repeats too, but
 * groups several disputes). When no value repeats, each row is a claim of its own and a column with
 * distinct values (preferably the named one) is the key.
 */
export function proposeClaimKey(
  sample: Sample,
  candidates: readonly ColumnProfile[],
  sharedColumns: readonly string[],
): ClaimKeyGuess {
  const rowCount = sample.rows.length;
  const scored = candidates
    .filter(
      (profile) =>
        profile.values.length > 0 && profile.blanks <= rowCount * 0.01 && !notReferences.has(profile.kind.kind),
    )
    .map((profile) =>
      score(
        sample,
        profile,
        sharedColumns.filter((column) => column !== profile.column),
      ),
    );
  const grouping = scored.filter((candidate) => candidate.groups > 0 && candidate.agreeing === candidate.groups);
  const best = grouping.sort(byPreference)[0];
  if (best !== undefined) {
    return {
      column: best.profile.column,
      confidence: best.named ? 'high' : 'medium',
      evidence:
        `${best.named ? 'the header names a dispute reference; ' : ''}${best.distinct} distinct values in ` +
        `${best.profile.values.length} rows, the rows of each agree on the ${sharedColumns.length} ` +
        `claim-level columns`,
      grouping: 'repeats',
    };
  }
  const named = scored.find((candidate) => candidate.named);
  if (named !== undefined && named.groups > 0) {
    return {
      column: named.profile.column,
      confidence: 'low',
      evidence:
        `the header names a dispute reference, but ${named.groups - named.agreeing} of its ${named.groups} ` +
        `repeated values have rows that disagree (${named.disagreement ?? ''}): check those rows`,
      grouping: 'repeats',
    };
  }
  // Each row a claim of its own: a dispute's reference before the transaction's ARN, which every row has.
  const unique = scored
    .filter((candidate) => candidate.distinct === candidate.profile.values.length)
    .sort((left, right) => isArn(left) - isArn(right) || byPreference(left, right))[0];
  if (unique !== undefined) {
    return {
      column: unique.profile.column,
      confidence: unique.named ? 'medium' : 'low',
      evidence:
        `no column's values repeat with agreeing rows; ${JSON.stringify(unique.profile.column)} is distinct ` +
        `on every row, so each row becomes a claim of its own`,
      grouping: 'one_row_per_claim',
    };
  }
  return {
    column: undefined,
    confidence: 'low',
    evidence: 'no column groups rows into claims and none is distinct on every row',
    grouping: 'none',
  };
}

/**
 * Values that name no dispute, whatever they share: dates and times (three rows of one day are not
 * one claim), currencies, networks, booleans, expiries, e-mail addresses, and a spreadsheet's
 * damage (00:00.0, 994268.00000), which groups rows by what a re-export may change.
 */
const notReferences: ReadonlySet<string> = new Set([
  'empty',
  'date',
  'currency',
  'network',
  'boolean',
  'expiry',
  'email',
  'damaged',
]);

/**
 * A header naming a dispute reference first, then the finest grouping; between groupings as fine,
 * the transaction's ARN (a claim per disputed transaction) before a column that only happens to
 * repeat with it.
 */
const isArn = (candidate: Candidate) => Number(candidate.profile.kind.kind === 'arn');

function byPreference(left: Candidate, right: Candidate): number {
  return Number(right.named) - Number(left.named) || right.distinct - left.distinct || isArn(right) - isArn(left);
}

function score(sample: Sample, profile: ColumnProfile, sharedColumns: readonly string[]): Candidate {
  const rowsByValue = new Map<string, number[]>();
  profile.values.forEach((value, position) => {
    const rows = rowsByValue.get(value) ?? [];
    rows.push(profile.rowIndexes[position] ?? 0);
    rowsByValue.set(value, rows);
  });
  let groups = 0;
  let agreeing = 0;
  let disagreement: string | undefined;
  for (const [value, rows] of rowsByValue) {
    if (rows.length < 2) continue;
    groups++;
    const differing = sharedColumns.find(
      (column) => new Set(rows.map((row) => (sample.rows[row]?.[column] ?? '').trim())).size > 1,
    );
    if (differing === undefined) agreeing++;
    else disagreement ??= `${JSON.stringify(value)} differs in ${JSON.stringify(differing)}`;
  }
  return {
    profile,
    named: profile.header?.role === 'claim_key',
    distinct: rowsByValue.size,
    groups,
    agreeing,
    disagreement,
  };
}

/** The numbers a per-file sequence runs through in the sample. */
export interface SequenceRange {
  readonly first: number;
  readonly last: number;
}

/**
 * Whether a claim key column looks like a per-file sequence: row or dispute numbers 1, 2, 3 … that
 * restart in every export, so two files' claims meet at the same key, hence the same claim id. The
 * range it runs through, or undefined when it looks like a real reference.
 */
export function perFileSequence(values: readonly string[], rowCount: number): SequenceRange | undefined {
  // Letters or separators (D0000123, ACME-2026-000123) make a reference, unique beyond one file.
  if (values.length === 0 || !values.every((value) => /^\d{1,9}$/.test(value))) return undefined;
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const value of values) {
    first = Math.min(first, Number(value));
    last = Math.max(last, Number(value));
  }
  // A sequence starts at the top of its file: 0 or 1. A numeric reference (2026000123) does not.
  if (first > 1) return undefined;
  // And stays within a few times the rows (gaps from deleted rows); a wider spread is not a count.
  if (last > 3 * rowCount) return undefined;
  return { first, last };
}
