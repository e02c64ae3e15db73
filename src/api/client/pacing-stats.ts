import type { AdaptiveRateStats } from './adaptive-rate.js';
import type { AnswerKind } from './answer-kind.js';
import type { RouteAnswerCount } from './route-counts.js';

/** What the pacing (pacing.ts) tells: each attempt to its listeners, and its counts so far. */

/** One attempt as the pacing saw it. `throttled`: the service answered 429 or 503, "not now". */
export interface AttemptReport {
  method: string;
  path: string;
  /** Undefined when no answer came (a network error). */
  status: number | undefined;
  throttled: boolean;
  kind: AnswerKind;
  /** The Retry-After it carried, in ms (capped), when it carried one. */
  retryAfterMs: number | undefined;
  /** The job paused for this answer: a 429's Retry-After, or a refusal among mostly refusals. */
  pausedJob: boolean;
  /** When the attempt was sent, and how long its answer took. */
  sentAtMs: number;
  latencyMs: number;
  /** A 429 that cut the pace to the service's rate (one a round). */
  rateCut: boolean;
}

export type AttemptListener = (report: AttemptReport) => void;

/** Hears how many retries wait parked now (a case unavailable for filing), each time that changes. */
export type ParkedListener = (parked: number) => void;

/** What the pacing has seen and done so far, for the summary and the logs. */
export interface PacingStats {
  maxRps: number | undefined;
  /** Attempts sent, answered or not, retries included: what the 429s are a share of. */
  requests: number;
  answered429: number;
  /** Every 503, the cases unavailable for filing among them. */
  answered503: number;
  /** 503s of filing or run_workflow: that case's state, retried on its own. */
  caseUnavailable: number;
  /** Attempts without an answer (reset, timeout, refused connection) or answered 502 or 504. */
  failed: number;
  /** Retries of refusals that waited for the retry budget. */
  retriesHeldBack: number;
  /** Answers that started or lengthened the job's pause. */
  pauses: number;
  /** Those of them that paused because the service accepted nothing for a while (down). */
  downPauses: number;
  /** Time the job was paused in all (overlapping pauses counted once). */
  pausedMs: number;
  /** Attempts that waited for their turn while --max-rps set the pace. */
  waitedForToken: number;
  /** Attempts that waited for their turn while the service's rate (its 429s) set it. */
  waitedForRate: number;
  /** The service's rate as the job followed it. */
  rate: AdaptiveRateStats;
  /** From the first attempt sent to the last one answered (or failed): requests / this is the pace kept. */
  sendingMs: number;
  /** Attempts by route (ids as `{id}`) and kind of answer, for the job's metrics. */
  byRoute: RouteAnswerCount[];
}
