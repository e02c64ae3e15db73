import type { Claim } from '../../api/schemas/claim.js';
import type { RowProblem, RowRecord } from '../import/records.js';
import {
  differences,
  identityOf,
  objectAt,
  parseObject,
  type IdentityField,
  type Json,
} from './transaction-identity.js';

/**
 * Whether a claim found at the service under our id is ours (docs/import.md, "Never a row on a
 * claim that is not its own"; docs/decisions/0002-deterministic-ids-and-adoption-by-identity.md).
 * Ids derive from the claim key, so a 409, or a retrieve that settles
 * an unknown outcome, finds whatever the service holds under that key: this job's claim (a re-run,
 * a lost journal, a create that committed before its answer was lost), or another dispute whose key
 * met ours (references that restart each year or each file, two platforms after a merger). Only the
 * first is adopted.
 *
 * What is compared: what identifies the disputed transaction, which no correction of a dispute
 * changes and which two disputes never share: the network's reference (ARN, or a switch serial
 * number), the transaction's amount, currency and date, and the card's last four digits. The
 * dispute's own fields (reason, disputed amount, cardholder, merchant, evidence) are not compared:
 * they are what a feed-back corrects on purpose. Compared as the service normalises them: dates as
 * calendar days (a date sent as `2026-10-01` comes back as `2026-10-01T00:00:00Z`), times as
 * instants, currencies in any case, references without spaces.
 *
 * A fed-back row whose results line named this very case (its `reported_case_id`) is proven by
 * that line and the card: its other differences are the fixes the person made, applied next as an
 * update (src/import/claim/apply-fixes.ts).
 *
 * Pure: the rows as the journal holds them, the claim as retrieved.
 */

export type Ownership = { ours: true } | { ours: false; problems: Map<number, RowProblem>; claimProblem: RowProblem };

/** A row's case as this job means it: the row, and its case's transaction and card as sent (or as they would be). */
export interface IntendedCase {
  row: Pick<RowRecord, 'idx' | 'line' | 'case_id' | 'reported_case_id' | 'outcome'>;
  transaction: Json;
  last4: unknown;
}

/** The claim's rows as the journal holds them (before its body is built). */
export function intendedFromRows(rows: readonly RowRecord[], sharedJson: string): IntendedCase[] {
  const last4 = objectAt(parseObject(sharedJson), 'card').last4;
  return rows.flatMap((row) =>
    row.case_json === null ? [] : [{ row, transaction: objectAt(parseObject(row.case_json), 'transaction'), last4 }],
  );
}

/** The claim as its new_claim body sends it: each case with the row that made it (by case id, else by place). */
export function intendedFromBody(
  body: { card?: Json | undefined; cases: readonly Json[] },
  rows: readonly RowRecord[],
): IntendedCase[] {
  const byCaseId = new Map(rows.map((row) => [row.case_id, row]));
  return body.cases.flatMap((item, position) => {
    const row = byCaseId.get(typeof item.case_id === 'string' ? item.case_id : null) ?? rows[position];
    if (row === undefined) return [];
    return [
      {
        row: { ...row, case_id: typeof item.case_id === 'string' ? item.case_id : row.case_id },
        transaction: objectAt(item, 'transaction'),
        last4: body.card?.last4,
      },
    ];
  });
}

/** How each intended case compares with the claim found: agrees, differs, is missing, or is a fix of it. */
type Comparison =
  | { intended: IntendedCase; kind: 'agrees' | 'fix' | 'missing' }
  | { intended: IntendedCase; kind: 'differs'; fields: IdentityField[] };

/**
 * The claim is ours when at least one row's case is in it and every row's case in it is that row's
 * transaction (or a fix of it). A row whose case the claim lacks does not disprove it (a row added
 * to the export later: `claim_exists_without_case`, as before), but a claim holding none of the
 * rows' cases is not ours. `rows`: all the claim's rows, each of which is told why when it is not.
 */
export function claimOwnership(
  found: Claim,
  intended: readonly IntendedCase[],
  rows: readonly Pick<RowRecord, 'idx' | 'line' | 'case_id' | 'outcome'>[],
  options: { httpStatus?: number | undefined } = {},
): Ownership {
  const comparisons = compareCases(found, intended);
  const differing = differingOf(comparisons);
  if (isProven(comparisons, differing)) return { ours: true };
  return notOurs(found.claim_id, rows, comparisons, differing, options.httpStatus);
}

/**
 * The same proof for a job that takes a claim back (withdraw): ours, or why not, in words that name
 * fields only (never the other dispute's values).
 */
export function proveOwnClaim(
  found: Claim,
  intended: readonly IntendedCase[],
): { ours: true } | { ours: false; why: string } {
  const comparisons = compareCases(found, intended);
  const differing = differingOf(comparisons);
  return isProven(comparisons, differing) ? { ours: true } : { ours: false, why: whyNotOurs(differing) };
}

function compareCases(found: Claim, intended: readonly IntendedCase[]): Comparison[] {
  const held = new Map((found.cases ?? []).map((item) => [item.case_id, item as Json]));
  return intended.flatMap((item): Comparison[] => {
    const caseId = item.row.case_id;
    if (caseId === null) return [];
    const heldCase = held.get(caseId);
    if (heldCase === undefined) return [{ intended: item, kind: 'missing' }];
    const fields = differences(
      identityOf(item.transaction, item.last4),
      identityOf(objectAt(heldCase, 'transaction'), objectAt(objectAt(heldCase, 'transaction'), 'card').last4),
    );
    if (fields.length === 0) return [{ intended: item, kind: 'agrees' }];
    // A fix fed back from the results line that reported this case: its differences are the
    // person's corrections, but never of the card (a dispute on another card is another dispute).
    if (item.row.reported_case_id === caseId && !fields.includes('shared.card.last4'))
      return [{ intended: item, kind: 'fix' }];
    return [{ intended: item, kind: 'differs', fields }];
  });
}

type Differing = Extract<Comparison, { kind: 'differs' }>;

function differingOf(comparisons: readonly Comparison[]): Differing[] {
  return comparisons.filter((item): item is Differing => item.kind === 'differs');
}

function isProven(comparisons: readonly Comparison[], differing: readonly Differing[]): boolean {
  return differing.length === 0 && comparisons.some((item) => item.kind === 'agrees' || item.kind === 'fix');
}

function whyNotOurs(differing: readonly Differing[]): string {
  const first = differing[0];
  return first === undefined
    ? "it holds none of this claim's cases"
    : `line ${first.intended.row.line}'s case ${first.intended.row.case_id ?? ''} is another transaction there (differs in ${first.fields.join(', ')})`;
}

/**
 * A claim of ours that was withdrawn (the claim closed, or every case closed as withdrawn) is taken
 * back: the rows are not its cases any more, and none is reported filed, created or updated on it.
 * Each row says so and how to send it again as a new claim.
 */
export function withdrawnRefusal(
  found: Claim,
  rows: readonly Pick<RowRecord, 'idx' | 'outcome'>[],
  options: { httpStatus?: number | undefined } = {},
): { problems: Map<number, RowProblem>; claimProblem: RowProblem } | undefined {
  const cases = found.cases ?? [];
  const withdrawn =
    found.status === 'closed' || (cases.length > 0 && cases.every((item) => item.closed_reason === 'withdrawn'));
  if (!withdrawn) return undefined;
  const claimProblem: RowProblem = {
    code: 'claim_withdrawn',
    field: 'claim.key',
    httpStatus: options.httpStatus,
    message:
      `claim ${found.claim_id} was withdrawn at the service: its cases are closed, and this row is not reported on it. ` +
      'To send the corrected rows as new claims, import them with a new id generation (--id-prefix, e.g. ' +
      '--id-prefix redo-1, or claim.id_prefix in the mapping) on a new journal; keep that prefix for their ' +
      're-runs and feed-backs',
  };
  const problems = new Map<number, RowProblem>();
  for (const row of rows) if (row.outcome === null) problems.set(row.idx, claimProblem);
  return { problems, claimProblem };
}

/** What to do about a key another dispute holds, said once in every such row's message. */
const remedy =
  "give this source its own keys: set claim.id_prefix in the mapping (the source's name or the year), " +
  'or use a key column unique across files; if this is the same dispute corrected, feed back the ' +
  'results file that reported it, so the change is applied as an update';

function notOurs(
  claimId: string,
  rows: readonly Pick<RowRecord, 'idx' | 'line' | 'case_id' | 'outcome'>[],
  comparisons: readonly Comparison[],
  differing: readonly Differing[],
  httpStatus: number | undefined,
): Ownership {
  const why = whyNotOurs(differing);
  const claimProblem: RowProblem = {
    code: 'claim_key_taken',
    message:
      `claim ${claimId}: expected this claim's transactions, got another dispute under the same claim key ` +
      `at the service: ${why}; left as it is, and none of this claim's rows reported on it. ` +
      capitalise(remedy),
    // What to fix is the key (a reviewer edits its columns), whatever field told the disputes apart.
    field: 'claim.key',
    httpStatus,
  };
  const byIdx = new Map(comparisons.map((item) => [item.intended.row.idx, item]));
  const problems = new Map<number, RowProblem>();
  for (const row of rows) {
    if (row.outcome !== null) continue;
    const comparison = byIdx.get(row.idx);
    const own =
      comparison?.kind === 'differs'
        ? `its case ${row.case_id ?? ''} there is another transaction (differs in ${comparison.fields.join(', ')})`
        : comparison?.kind === 'missing' || comparison === undefined
          ? `it holds no case ${row.case_id ?? 'of this row'}`
          : `this row's case agrees, but ${why}`;
    problems.set(row.idx, {
      code: 'claim_key_taken',
      message: `claim ${claimId} at the service is another dispute under this claim key: ${own}; left as it is, not adopted. ${capitalise(remedy)}`,
      field: 'claim.key',
      httpStatus,
    });
  }
  return { ours: false, problems, claimProblem };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
