import type { CaseTally } from './case-book.js';
import type { JobFacts } from './job-facts.js';
import { after } from './periods.js';
import type { RetentionPolicy } from './policy.js';

/**
 * What prune does with a job (docs/data.md, "Retention"), decided from its journal and what the
 * track journals last saw of its cases:
 * - `thin`: its personal data is due: the journal thinned, the files its runs wrote deleted;
 * - `remove`: its records are due too: every file of it deleted;
 * - `finish`: thinned already, with files left (a prune stopped midway) or text to reclaim;
 * - `keep`: not due yet, or thinned and its records not due;
 * - `leave`: its work is not over, or prune cannot tell that it is (said why).
 */
export type Decision =
  | { readonly action: 'thin' | 'remove' | 'finish' | 'keep'; readonly why: string; readonly dates: JobDates }
  | { readonly action: 'leave'; readonly why: string };

export interface JobDates {
  /** Its last case's closing, or its last run when it has no case at the service. */
  readonly since: Date;
  readonly sinceWhat: 'last case closed' | 'last run';
  readonly personalDataDue: Date;
  readonly recordsDue: Date;
}

export function decide(
  facts: JobFacts,
  cases: CaseTally,
  policy: RetentionPolicy,
  context: { now: Date; journalWrittenAt: Date; leftovers: boolean },
): Decision {
  if (facts.unfinished !== undefined) return { action: 'leave', why: facts.unfinished };
  if (cases.open > 0)
    return {
      action: 'leave',
      why: `${plural(cases.open, 'case')} of ${cases.cases.toLocaleString('en')} still open as track last saw ${cases.open === 1 ? 'it' : 'them'}${cases.lastSeenAt === undefined ? '' : ` (${day(new Date(cases.lastSeenAt))})`}`,
    };
  if (cases.unseen > 0)
    return {
      action: 'leave',
      why: `${plural(cases.unseen, 'case')} of ${cases.cases.toLocaleString('en')} never seen closed by a track journal here: run track on this job (or give its track journal's folder)`,
    };
  const dates = datesOf(facts, cases, policy, context.journalWrittenAt);
  const { now } = context;
  const since = `${dates.sinceWhat} ${day(dates.since)}`;
  if (now >= dates.recordsDue)
    return {
      action: 'remove',
      why: `${since}; records due ${day(dates.recordsDue)} (--keep-records ${policy.keepRecords.text})`,
      dates,
    };
  if (facts.thinned !== undefined)
    return context.leftovers
      ? {
          action: 'finish',
          why: `thinned ${day(new Date(facts.thinned.at))}, files of it left by a prune that stopped`,
          dates,
        }
      : {
          action: 'keep',
          why: `thinned ${day(new Date(facts.thinned.at))}; records kept until ${day(dates.recordsDue)}`,
          dates,
        };
  if (now >= dates.personalDataDue)
    return {
      action: 'thin',
      why: `${since}; personal data due ${day(dates.personalDataDue)} (--keep-personal-data ${policy.keepPersonalData.text})`,
      dates,
    };
  return { action: 'keep', why: `${since}; personal data kept until ${day(dates.personalDataDue)}`, dates };
}

function datesOf(facts: JobFacts, cases: CaseTally, policy: RetentionPolicy, journalWrittenAt: Date): JobDates {
  const lastRun = facts.lastRunAt === undefined ? journalWrittenAt : new Date(facts.lastRunAt);
  const since = cases.lastClosedAt === undefined ? lastRun : new Date(cases.lastClosedAt);
  return {
    since,
    sinceWhat: cases.lastClosedAt === undefined ? 'last run' : 'last case closed',
    personalDataDue: after(since, policy.keepPersonalData),
    recordsDue: after(since, policy.keepRecords),
  };
}

export function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function plural(n: number, noun: string): string {
  return `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
}
