import { listCodes, type ColumnProfile } from './profile.js';
import { foldText } from './words.js';

/**
 * A column beside an amount that holds only its sign, as bank reports write a debit or credit
 * in a column of its own (`+`/`-`, `D`/`C`): proposed as the amount's `sign_column`
 * (docs/mappings.md, "Amounts and signs as banks write them"), always with a CHECK.
 */
export interface SignColumnGuess {
  readonly column: string;
  readonly negative: readonly string[];
  readonly positive: readonly string[];
  /** Why: which values, and beside the amount or by its header. */
  readonly evidence: string;
  /** Whether the sample row's sign cell makes its amount negative. */
  readonly negativeRow: (rowIndex: number) => boolean;
}

/** The spellings a sign column takes, each pair alone: a column mixing `D` and `-` is not one. */
const pairs: readonly { negative: string; positive: string }[] = [
  { negative: '-', positive: '+' },
  { negative: 'D', positive: 'C' },
  { negative: 'd', positive: 'c' },
];

/** Words of a sign column's header, for one that is not beside its amount. */
const signWords = /\b(sign|debit|credit|indicator|dr|cr)\b/;

interface Candidate {
  readonly profile: ColumnProfile;
  readonly pair: { negative: string; positive: string };
}

/**
 * The columns of a sample that can be sign columns: no header role of their own, a value on
 * every row (a blank sign cell would be a row error), and only the two spellings of one pair.
 */
export function signColumnCandidates(profiles: readonly ColumnProfile[]): readonly Candidate[] {
  return profiles.flatMap((profile) => {
    if (profile.header !== undefined || profile.values.length === 0 || profile.blanks > 0) return [];
    const pair = pairs.find(({ negative, positive }) =>
      profile.values.every((value) => value === negative || value === positive),
    );
    return pair === undefined ? [] : [{ profile, pair }];
  });
}

/**
 * The sign column of an amount column: a candidate beside it, else the sample's only candidate
 * whose header names a sign (`Credit Debit Indicator`, `DR/CR`).
 */
export function signColumnFor(amount: ColumnProfile, candidates: readonly Candidate[]): SignColumnGuess | undefined {
  const beside = candidates.find(({ profile }) => Math.abs(profile.position - amount.position) === 1);
  const named = candidates.filter(({ profile }) => signWords.test(foldText(profile.column)));
  const only = named.length === 1 ? named[0] : undefined;
  const found = beside ?? only;
  if (found === undefined) return undefined;
  const { profile, pair } = found;
  const negativeRows = new Set(
    profile.values.flatMap((value, position) => (value === pair.negative ? [profile.rowIndexes[position] ?? -1] : [])),
  );
  const where = beside === undefined ? 'the only sign column, by its header' : 'beside it';
  return {
    column: profile.column,
    negative: [pair.negative],
    positive: [pair.positive],
    evidence:
      `the sign from column ${JSON.stringify(profile.column)} (${where}; values ${listCodes(profile.values)}): ` +
      `${JSON.stringify(pair.negative)} negative, ${JSON.stringify(pair.positive)} positive`,
    negativeRow: (rowIndex) => negativeRows.has(rowIndex),
  };
}
