import { neverFiledStatus, type CaseState } from './case-state.js';
import { majorUnits, type StatusLine } from './status.js';

/** Cases and their amounts in one group: amounts per currency, never added across currencies. */
export interface Tally {
  cases: number;
  /** Minor units by currency. */
  amounts: Record<string, number>;
}

export interface TrackSummary {
  /** Source rows, and those with a case read. */
  rows: number;
  cases: number;
  byStatus: Record<string, Tally>;
  /** Decided cases by how they closed; one without a reason by its status (`won, no reason given`). */
  byClosedReason: Record<string, Tally>;
  byReason: Record<string, Tally>;
  /** Per reason code: cases won, lost, closed otherwise, still open, and never filed. */
  outcomesByReason: Record<string, Record<OutcomeGroup, number>>;
  byJob: Record<string, Tally>;
  /** What was disputed, what of it was filed, and what came back (won), by currency: the recovery rate is won over filed. */
  disputed: Record<string, number>;
  filed: Record<string, number>;
  won: Record<string, number>;
  /** Cases never filed (still created, or withdrawn before filing): outside the recovery rate. */
  neverFiled: number;
  /** Cases read this run whose state differs from the last read. */
  changed: number;
  worklist: number;
  /** Cases decided, by the Monday of the week they were first seen decided (YYYY-MM-DD). */
  resolvedByWeek: Record<string, number>;
  /** Rows whose case is not read yet (a run stopped early). */
  notRead: number;
  missing: number;
}

export const emptySummary = (): TrackSummary => ({
  rows: 0,
  cases: 0,
  byStatus: {},
  byClosedReason: {},
  byReason: {},
  outcomesByReason: {},
  byJob: {},
  disputed: {},
  filed: {},
  won: {},
  neverFiled: 0,
  changed: 0,
  worklist: 0,
  resolvedByWeek: {},
  notRead: 0,
  missing: 0,
});

/**
 * Adds one status line. A case named by two rows (two sources naming one case) is counted once:
 * `seen` holds the case ids counted.
 */
export function addToSummary(summary: TrackSummary, line: StatusLine, seen: Set<string>): void {
  summary.rows++;
  if (line.note.startsWith('the case is not at the service')) summary.missing++;
  const state = line.state;
  if (state === undefined) {
    if (line.caseId !== '' && line.note.startsWith('not read')) summary.notRead++;
    return;
  }
  if (seen.has(line.caseId)) return;
  seen.add(line.caseId);
  summary.cases++;
  if (line.changed === 'yes') summary.changed++;
  const amount = state.amount ?? 0;
  const currency = state.currency || '?';
  tally(summary.byStatus, state.status, currency, amount);
  // What the service said: a decided case without a closed reason is told by its status.
  if (state.status === 'won' || state.status === 'lost' || state.status === 'closed')
    tally(summary.byClosedReason, state.closedReason || `${state.status}, no reason given`, currency, amount);
  tally(summary.byReason, state.reason, currency, amount);
  const outcomes = (summary.outcomesByReason[state.reason] ??= { won: 0, lost: 0, closed: 0, open: 0, never_filed: 0 });
  outcomes[wasFiled(state) ? outcomeGroupOf(state.status) : 'never_filed']++;
  tally(summary.byJob, line.job, currency, amount);
  summary.disputed[currency] = (summary.disputed[currency] ?? 0) + amount;
  if (wasFiled(state)) summary.filed[currency] = (summary.filed[currency] ?? 0) + amount;
  else summary.neverFiled++;
  const week = weekOf(line.decidedAt);
  if (week !== undefined) summary.resolvedByWeek[week] = (summary.resolvedByWeek[week] ?? 0) + 1;
  if (state.status === 'won') summary.won[currency] = (summary.won[currency] ?? 0) + amount;
}

/** How a case stands for the outcome bars; a case never filed (created, or withdrawn before filing) is a group of its own. */
export type OutcomeGroup = 'won' | 'lost' | 'closed' | 'open' | 'never_filed';

export function outcomeGroupOf(status: string): Exclude<OutcomeGroup, 'never_filed'> {
  return status === 'won' || status === 'lost' || status === 'closed' ? status : 'open';
}

/** The Monday (UTC) of a time's week, as YYYY-MM-DD. */
export function weekOf(time: string): string | undefined {
  const ms = Date.parse(time);
  if (Number.isNaN(ms)) return undefined;
  const day = new Date(ms);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() - sinceMonday))
    .toISOString()
    .slice(0, 10);
}

function tally(groups: Record<string, Tally>, key: string, currency: string, amount: number): void {
  const group = (groups[key] ??= { cases: 0, amounts: {} });
  group.cases++;
  group.amounts[currency] = (group.amounts[currency] ?? 0) + amount;
}

/**
 * Whether a case reached the network: not still `created`, and not withdrawn before filing (the
 * interface's `created` → `closed`, closed_reason `withdrawn`; a filed case withdrawn ends `lost`).
 */
export function wasFiled(state: CaseState): boolean {
  if (state.status === neverFiledStatus) return false;
  return !(state.status === 'closed' && state.closedReason === 'withdrawn');
}

/** Won / filed, per currency; undefined where nothing was filed. A case never filed cannot be won. */
export function recoveryRates(summary: TrackSummary): Record<string, number> {
  const rates: Record<string, number> = {};
  for (const [currency, filed] of Object.entries(summary.filed))
    if (filed > 0) rates[currency] = (summary.won[currency] ?? 0) / filed;
  return rates;
}

/** `32.5% of 879052.89 CHF filed`, per currency, and the cases left out: the recovery rate as a person reads it. */
export function recoveryText(summary: TrackSummary): string | undefined {
  const rates = Object.entries(recoveryRates(summary)).map(
    ([currency, rate]) =>
      `${(rate * 100).toFixed(1)}% of ${majorUnits(summary.filed[currency], currency)} ${currency} filed`,
  );
  if (rates.length === 0) return undefined;
  const left = summary.neverFiled;
  return left === 0
    ? rates.join(', ')
    : `${rates.join(', ')} (${left} ${left === 1 ? 'case' : 'cases'} never filed not counted)`;
}

/** `12.50 USD + 3.00 EUR`, largest first. */
export function formatAmounts(amounts: Record<string, number>): string {
  const parts = Object.entries(amounts).sort((a, b) => b[1] - a[1]);
  return parts.length === 0
    ? '0'
    : parts.map(([currency, amount]) => `${majorUnits(amount, currency)} ${currency}`).join(' + ');
}

/** The summary as a person reads it on the terminal (stderr), a few lines. */
export function formatTrackSummary(summary: TrackSummary, firstRun: boolean): string {
  const lines: string[] = [];
  const groups = (title: string, groupsOf: Record<string, Tally>) => {
    const entries = Object.entries(groupsOf).sort((a, b) => b[1].cases - a[1].cases);
    if (entries.length === 0) return;
    lines.push(`${title}: ${entries.map(([key, group]) => `${key || '(none)'} ${group.cases}`).join(', ')}`);
  };
  const changed = firstRun ? 'the first run' : `${summary.changed} changed since the last run`;
  lines.push(
    `${summary.rows} rows, ${summary.cases} cases read` +
      (summary.notRead > 0 ? `, ${summary.notRead} not read yet` : '') +
      (summary.missing > 0 ? `, ${summary.missing} not at the service` : '') +
      `; ${changed}`,
  );
  groups('by status', summary.byStatus);
  groups('decided', summary.byClosedReason);
  const recovery = recoveryText(summary);
  if (recovery !== undefined) lines.push(`recovered (won): ${recovery}`);
  return `${lines.join('\n')}\n`;
}
