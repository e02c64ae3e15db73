import { minorUnitExponent } from '../../mapping/transforms/currency.js';
import type { RowWithState } from './journal.js';
import { finalStatuses, parseState, type CaseState } from './case-state.js';

/** The status file's columns, in order (docs/track.md, "The status file"). */
export const statusColumns = [
  'job',
  'line',
  'claim_key',
  'claim_id',
  'case_id',
  'status',
  'closed_reason',
  'review_status',
  'resolution_due_date',
  'days_left',
  'amount',
  'currency',
  'reason',
  'changed',
  'note',
] as const;

/** One line of the status file: a source row and the last state read of its case. */
export interface StatusLine {
  job: string;
  line: number;
  claimKey: string;
  claimId: string;
  caseId: string;
  state: CaseState | undefined;
  /** Whole days from `asOf` to the due date, rounded down (negative: overdue); undefined without a due date or once decided. */
  daysLeft: number | undefined;
  /** `new` on the first read of the case, `yes` when this run found it different, else `no`; '' when not read. */
  changed: '' | 'new' | 'yes' | 'no';
  note: string;
  /** When it was first seen decided ('' while it is not): for the resolved-by-week chart. */
  decidedAt: string;
  /** The row's outcome in the job that made it (`not_filed`, `created`, …), '' when the source does not say. */
  jobOutcome: string;
  /** That job's error for the row, `code: message`, '' when none. */
  jobError: string;
}

const dayMs = 24 * 60 * 60 * 1000;

/** A row of the journal as its status line, as of `asOf` (ms) for the run `run`. */
export function statusLineOf(row: RowWithState, run: number, asOf: number): StatusLine {
  const state = row.state === null ? undefined : parseState(row.state);
  const daysLeft = state === undefined ? undefined : daysLeftOf(state, asOf);
  let note = row.note;
  if (row.missing === 1) note = 'the case is not at the service (404)';
  else if (row.case_id !== '' && state === undefined) note = 'not read yet: run track again';
  return {
    job: row.job,
    line: row.line,
    claimKey: row.claim_key,
    claimId: state?.claimId || row.claim_id,
    caseId: row.case_id,
    state,
    daysLeft,
    changed: changedOf(row, run),
    note,
    decidedAt: row.decided_at ?? '',
    // A journal read as it is (report, review) may predate these columns.
    jobOutcome: row.job_outcome ?? '',
    jobError: row.job_error ?? '',
  };
}

function changedOf(row: RowWithState, run: number): StatusLine['changed'] {
  if (row.read_run === null || row.case_id === '') return '';
  if (row.changed_run !== run) return 'no';
  return row.first_run === run ? 'new' : 'yes';
}

export function daysLeftOf(state: CaseState, asOf: number): number | undefined {
  if (finalStatuses.has(state.status) || state.resolutionDueDate === '') return undefined;
  const due = Date.parse(state.resolutionDueDate);
  return Number.isNaN(due) ? undefined : Math.floor((due - asOf) / dayMs);
}

/**
 * The cells of a status line, as the file writes them. `decimal`: the amount's decimal separator,
 * `,` for a file in a `;` dialect (where a spreadsheet reads `1234.56` as text), else `.`.
 */
export function statusCells(line: StatusLine, decimal: Decimal = '.'): string[] {
  const state = line.state;
  return [
    line.job,
    String(line.line),
    line.claimKey,
    line.claimId,
    line.caseId,
    state?.status ?? '',
    state?.closedReason ?? '',
    state?.reviewStatus ?? '',
    state?.resolutionDueDate ?? '',
    line.daysLeft === undefined ? '' : String(line.daysLeft),
    state === undefined ? '' : withDecimal(majorUnits(state.amount, state.currency), decimal),
    state?.currency ?? '',
    state?.reason ?? '',
    line.changed,
    line.note,
  ];
}

export type Decimal = '.' | ',';

/** The decimal separator a status file in this delimiter writes amounts with. */
export function decimalFor(delimiter: string | undefined): Decimal {
  return delimiter === ';' ? ',' : '.';
}

export function withDecimal(amount: string, decimal: Decimal): string {
  return decimal === '.' ? amount : amount.replace('.', decimal);
}

/** Minor units as the currency writes them: 1250 USD → 12.50; an unknown currency's amount as it came. */
export function majorUnits(amount: number | undefined, currency: string): string {
  if (amount === undefined) return '';
  const exponent = minorUnitExponent(currency);
  if (!exponent.ok) return String(amount);
  return (amount / 10 ** exponent.value).toFixed(exponent.value);
}
