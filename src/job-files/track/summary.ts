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
  /** Decided cases by how they closed; '' is a decided case without a reason. */
  byClosedReason: Record<string, Tally>;
  byReason: Record<string, Tally>;
  /** Per reason code: cases won, lost, closed otherwise, and still open. */
  outcomesByReason: Record<string, Record<OutcomeGroup, number>>;
  byJob: Record<string, Tally>;
  /** What was disputed, and what came back (won), by currency: the recovery rate is their ratio. */
  disputed: Record<string, number>;
  won: Record<string, number>;
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
  won: {},
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
  if (state.status === 'won' || state.status === 'lost' || state.status === 'closed')
    tally(summary.byClosedReason, state.closedReason, currency, amount);
  tally(summary.byReason, state.reason, currency, amount);
  const outcomes = (summary.outcomesByReason[state.reason] ??= { won: 0, lost: 0, closed: 0, open: 0 });
  outcomes[outcomeGroupOf(state.status)]++;
  tally(summary.byJob, line.job, currency, amount);
  summary.disputed[currency] = (summary.disputed[currency] ?? 0) + amount;
  const week = weekOf(line.decidedAt);
  if (week !== undefined) summary.resolvedByWeek[week] = (summary.resolvedByWeek[week] ?? 0) + 1;
  if (state.status === 'won') summary.won[currency] = (summary.won[currency] ?? 0) + amount;
}

export type OutcomeGroup = 'won' | 'lost' | 'closed' | 'open';

export function outcomeGroupOf(status: string): OutcomeGroup {
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

/** Won / disputed, per currency; undefined where nothing was disputed. */
export function recoveryRates(summary: TrackSummary): Record<string, number> {
  const rates: Record<string, number> = {};
  for (const [currency, disputed] of Object.entries(summary.disputed))
    if (disputed > 0) rates[currency] = (summary.won[currency] ?? 0) / disputed;
  return rates;
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
  const rates = recoveryRates(summary);
  const rateText = Object.entries(rates).map(
    ([currency, rate]) =>
      `${(rate * 100).toFixed(1)}% of ${majorUnits(summary.disputed[currency], currency)} ${currency}`,
  );
  if (rateText.length > 0) lines.push(`recovered (won): ${rateText.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
