import { answeredStatuses, finalStatuses, neverFiledStatus } from './case-state.js';
import type { StatusLine } from './status.js';

/**
 * The worklist (docs/track.md, "The worklist"): the open cases that need a person, in the order a
 * person works them. First what loses money on a deadline: a case the service flagged for review
 * and a case the merchant answered; then what is due within the window; last the cases that were
 * never filed, which no deadline of the service's waits on but the filing window. Soonest due first
 * within each, those without a due date last.
 */

/** Why a case needs a person this morning; the first that applies. */
export type WorkReason = 'needs_review' | 'answered' | 'due_soon' | 'not_filed';

export interface WorkItem {
  readonly line: StatusLine;
  readonly why: WorkReason;
}

/** The order of the whys: a lower rank comes first; the flags and the answers share one. */
const rank: Readonly<Record<WorkReason, number>> = { needs_review: 0, answered: 0, due_soon: 1, not_filed: 2 };

export function workItemOf(line: StatusLine, dueWithinDays: number): WorkItem | undefined {
  const state = line.state;
  if (state === undefined || finalStatuses.has(state.status)) return undefined;
  if (state.reviewStatus === 'chargeback_needs_review') return { line, why: 'needs_review' };
  if (answeredStatuses.has(state.status)) return { line, why: 'answered' };
  // Never filed: its due date is the service's for a filed case, so "due soon" would say the wrong thing.
  if (state.status === neverFiledStatus) return { line, why: 'not_filed' };
  if (line.daysLeft !== undefined && line.daysLeft <= dueWithinDays) return { line, why: 'due_soon' };
  return undefined;
}

export function compareWork(a: WorkItem, b: WorkItem): number {
  const byRank = rank[a.why] - rank[b.why];
  if (byRank !== 0) return byRank;
  const dueA = a.line.state?.resolutionDueDate || '\uffff';
  const dueB = b.line.state?.resolutionDueDate || '\uffff';
  if (dueA !== dueB) return dueA < dueB ? -1 : 1;
  return a.line.caseId < b.line.caseId ? -1 : a.line.caseId > b.line.caseId ? 1 : 0;
}

/** The whys in the worklist's order, for counts. */
export const workReasons: readonly WorkReason[] = ['needs_review', 'answered', 'due_soon', 'not_filed'];

export const whyText: Readonly<Record<WorkReason, string>> = {
  needs_review: 'needs review',
  answered: 'merchant answered',
  due_soon: 'due soon',
  not_filed: 'never filed',
};

/** What each why asks of a person (docs/track.md, "The worklist"). */
export const nextSteps: Readonly<Record<WorkReason, string>> = {
  needs_review: 'the service flagged the case for review: look at it at the service before its due date',
  answered:
    'the merchant answered (represented, pre-arbitration or arbitration): respond at the service before the due date, or accept',
  due_soon: 'due soon: act on it at the service before the due date, or it is decided as it stands',
  not_filed:
    'never filed: fix the row and feed the results file back to the import, or withdraw the case when its filing window has passed',
};

/** What the why asks of a person, in one sentence. */
export function nextStepOf(item: WorkItem): string {
  return nextSteps[item.why];
}

/**
 * What a person reads about one item: for a case never filed, what the job that made it recorded
 * when it did not file it, then the step; else the step alone.
 */
export function workTextOf(item: WorkItem): string {
  const step = nextSteps[item.why];
  if (item.why !== 'not_filed' || item.line.jobError === '') return step;
  return `not filed by the job ${item.line.job}: ${item.line.jobError}; ${step.replace(/^never filed: /, '')}`;
}

/** The worklist's columns, in order (docs/track.md, "The worklist"). */
export const worklistColumns = [
  'case_id',
  'why',
  'resolution_due_date',
  'days_left',
  'status',
  'review_status',
  'amount',
  'currency',
  'reason',
  'claim_id',
  'claim_key',
  'job',
  'line',
  'job_error',
  'next_step',
] as const;
