import { renameStatusColumns, isResultsHeader, statusCell } from '../import/columns.js';
import { isMigrateHeader, migrateColumns } from '../migrate/columns.js';
import { maskCardNumbers } from '../../card-numbers/mask.js';
import { identifierDamage } from '../../mapping/spreadsheet-damage.js';
import type { WithdrawTarget } from '../withdraw/target.js';
import { claimKeyWanted, outcomeWanted, type TargetFilter } from './target-filter.js';

/**
 * How the rows of a table source (a CSV or a workbook) name claims: which cell holds the claim id,
 * the case id, the outcome and the claim key. A results file of ours has them in its status columns
 * (the import's, or migrate-v1's, whose claim key is the group key); any other table has a
 * `claim_id` or `case_id` column, or the one `--column` names. Pure: a header in, a layout out; a
 * row's cells in, a target, a reason to skip it, or nothing (filtered out) out.
 */

export type Role = 'claimId' | 'caseId' | 'outcome' | 'claimKey' | 'errorCode' | 'errorMessage';

export interface TableLayout {
  readonly kind: 'results' | 'list';
  /** The header to read the rows under: every name present and unique (readRows refuses others). */
  readonly header: readonly string[];
  /** A row's cell for each role it has ('' when the table has no such column). */
  readonly cell: (cells: Readonly<Record<string, string>>, role: Role) => string;
  readonly has: ReadonlySet<Role>;
}

/** A table without a column of ids: what it has, for the message. */
export interface LayoutProblem {
  readonly problem: string;
}

export function tableLayout(names: readonly string[], column: string | undefined): TableLayout | LayoutProblem {
  if (isResultsHeader(names)) {
    const status: Record<Role, 'claim_id' | 'case_id' | 'outcome' | 'claim_key' | 'error_code' | 'error_message'> = {
      claimId: 'claim_id',
      caseId: 'case_id',
      outcome: 'outcome',
      claimKey: 'claim_key',
      errorCode: 'error_code',
      errorMessage: 'error_message',
    };
    return {
      kind: 'results',
      header: unique(renameStatusColumns(names)),
      cell: (cells, role) => statusCell(cells, status[role]),
      has: new Set(Object.keys(status) as Role[]),
    };
  }
  if (isMigrateHeader(names)) {
    const columns: Record<Role, (typeof migrateColumns)[number]> = {
      claimId: 'claim_id',
      caseId: 'case_id',
      outcome: 'outcome',
      claimKey: 'group_key',
      errorCode: 'error_code',
      errorMessage: 'error_message',
    };
    return {
      kind: 'results',
      header: unique(names),
      cell: (cells, role) => cells[columns[role]] ?? '',
      has: new Set(Object.keys(columns) as Role[]),
    };
  }
  return listLayout(names, column);
}

/**
 * A list from another system. Headers match trimmed, in any letter case, spaces and dashes as
 * underscores (`Claim ID` is `claim_id`). `--column NAME` names the column to read instead: read as
 * case ids when its name says `case` (`Case Number`), else as claim ids. An `outcome` or
 * `claim_key` column, when there is one, serves `--outcome` and the claim keys as a results file's.
 */
function listLayout(names: readonly string[], column: string | undefined): TableLayout | LayoutProblem {
  const header = unique(names);
  const positions = new Map<Role, number>();
  const find = (wanted: string, role: Role): string | undefined => {
    const found = names.flatMap((name, position) => (normalised(name) === normalised(wanted) ? [position] : []));
    if (found.length > 1) return `expected one column ${JSON.stringify(wanted)}, got ${found.length}`;
    if (found[0] !== undefined) positions.set(role, found[0]);
    return undefined;
  };
  const problems =
    column === undefined
      ? [find('claim_id', 'claimId'), find('case_id', 'caseId')]
      : [find(column, /case/i.test(column) ? 'caseId' : 'claimId')];
  problems.push(find('outcome', 'outcome'), find('claim_key', 'claimKey'));
  const problem = problems.find((item) => item !== undefined);
  if (problem !== undefined) return { problem };
  if (!positions.has('claimId') && !positions.has('caseId')) {
    const wanted =
      column === undefined
        ? 'a column claim_id or case_id'
        : `the column ${JSON.stringify(column)} that --column names`;
    return {
      problem: `expected ${wanted}, got the columns ${names.map((name) => JSON.stringify(name)).join(', ') || 'none'}`,
    };
  }
  return {
    kind: 'list',
    header,
    cell: (cells, role) => {
      const position = positions.get(role);
      return position === undefined ? '' : (cells[header[position] ?? ''] ?? '');
    },
    has: new Set(positions.keys()),
  };
}

const normalised = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** Blank and repeated names get names of their own: a column a person added in a spreadsheet must not stop the read. */
function unique(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((name, position) => {
    const kept = name === '' || seen.has(name) ? `\u0000column ${position + 1}` : name;
    seen.add(kept);
    return kept;
  });
}

/**
 * Outcomes of a claim never created by the job, whose claim id (if any) is not its to take back:
 * refused or held back, checked in a dry run, another dispute's (`claim_key_taken` is `rejected`),
 * or, for migrate-v1, a case left in the claim it already had.
 */
const neverCreated: Readonly<Record<string, string>> = {
  invalid: 'the row was held back, its claim never sent',
  rejected:
    "the service refused the claim, or its id is another dispute's (claim_key_taken): not this job's to take back",
  valid: 'a dry run: nothing was sent',
  skipped: 'the case stayed in the claim it already had, not one the migration created',
};

export type LineVerdict = { readonly target: WithdrawTarget } | { readonly skip: string } | undefined;

/**
 * What one row of a table names: a claim (with its case), a case alone, a reason it names nothing,
 * or nothing wanted. A line of a claim never created is told, unless the filters asked for other
 * lines (its key not asked for, or --outcome given: such outcomes are never asked for).
 */
export function tableLine(
  layout: TableLayout,
  cell: (role: Role) => string,
  filter: TargetFilter,
  seenKeys: Set<string>,
): LineVerdict {
  const value = (role: Role) => cell(role).trim();
  const [claimId, caseId, outcome, claimKey] = [value('claimId'), value('caseId'), value('outcome'), value('claimKey')];
  if (!claimKeyWanted([claimKey], filter)) return undefined;
  const never = neverCreated[outcome];
  if (never !== undefined)
    return (filter.outcomes?.length ?? 0) > 0 ? undefined : { skip: `outcome ${outcome}: ${never}` };
  // A key asked for names a claim to take back, whatever --outcome leaves of it (unmatchedClaimKeys).
  claimKeyWanted([claimKey], filter, seenKeys);
  if (!outcomeWanted(outcome, filter)) return undefined;
  const damaged = identifierDamage('claim_id', 'claim_id', claimId) ?? identifierDamage('case_id', 'case_id', caseId);
  if (damaged !== undefined) return { skip: damaged.message };
  if (claimId === '' && (layout.kind === 'results' || caseId === '')) return { skip: blankReason(layout) };
  // The key is copied into the job's files: one a version before masking left whole goes masked.
  return { target: { claimId, claimKey: maskCardNumbers(claimKey), caseIds: caseId === '' ? [] : [caseId] } };
}

function blankReason(layout: TableLayout): string {
  if (layout.kind === 'results')
    return 'claim_id: expected the id of the claim the line is for, got a blank cell (its claim was never created)';
  const columns = [
    layout.has.has('claimId') ? 'claim id' : undefined,
    layout.has.has('caseId') ? 'case id' : undefined,
  ].filter((name) => name !== undefined);
  return `expected a ${columns.join(' or ')}, got a blank cell`;
}
