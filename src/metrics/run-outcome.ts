import type { RouteAnswerCount } from '../api/client/route-counts.js';
import type { ThrottlingSummary } from '../rate/follow-throttling.js';

/**
 * What a job command tells of its run, for its metrics (docs/monitoring.md): neutral words that
 * every job fills in with what it has, and the CLI completes with the exit code once it is final.
 */
export interface RunFigures {
  /** Seconds per phase of the summary's `took` line (staging, sending, results, …); the total is their sum. */
  phases?: readonly { phase: string; seconds: number }[] | undefined;
  /** Input rows by outcome (import's rows, migrate-v1's cases, withdraw's claims), and whether each outcome is a good one. */
  rows?: readonly { outcome: string; ok: boolean; count: number }[] | undefined;
  /** Claims by outcome. */
  claims?: readonly { outcome: string; count: number }[] | undefined;
  /** How the service paced the job; its requests by route come with it unless `requests` is given. */
  throttling?: ThrottlingSummary | undefined;
  requests?: readonly RouteAnswerCount[] | undefined;
  /** track's figures. */
  track?: TrackFigures | undefined;
  /** prune's figures. */
  prune?: PruneFigures | undefined;
}

export interface PruneFigures {
  /** Jobs by what prune did with them: thin, remove, finish, keep, leave (none: the run failed before). */
  jobsByAction?: Readonly<Record<string, number>> | undefined;
  bytesDeleted?: number | undefined;
  /** The policy's personal-data period, in seconds: how long a job's personal data may stay, what the overdue alert allows between prunes. */
  keepPersonalDataSeconds: number;
}

export interface TrackFigures {
  /** Worklist cases by why (track's WorkReason values). */
  worklistByWhy: Readonly<Record<string, number>>;
  worklistOverdue: number;
  casesByStatus: Readonly<Record<string, number>>;
  /** Amount recovered (won) over amount disputed, by currency. */
  recoveryByCurrency: Readonly<Record<string, number>>;
}

export interface RunOutcome extends RunFigures {
  /** The Pushgateway's grouping: `job`, `environment` (the API key's), and `shard` for one shard of a night. */
  job: string;
  environment: 'test' | 'live';
  shard?: number | undefined;
  exitCode: number;
  endedAt: Date;
}

/** Exit 0 (every row ok) and 1 (finished, some rows not ok) are a finished job: a success for the alerts. */
export function finished(exitCode: number): boolean {
  return exitCode === 0 || exitCode === 1;
}
