import type { WorkItem } from '../job-files/track/worklist.js';
import type { TrackSummary } from '../job-files/track/summary.js';
import type { PhaseTime } from '../progress/phases.js';
import type { ThrottlingSummary } from '../rate/follow-throttling.js';
import type { TrackRequests } from './requests.js';

/** What a track run reports: its summary and worklist, the requests it took, why it stopped early. */

export type RunKind = 'first' | 'incremental' | 'full';

export interface TrackReport {
  kind: RunKind;
  summary: TrackSummary;
  /** The whole worklist, in the order a person works it (docs/track.md, "The worklist"). */
  worklist: WorkItem[];
  requests: TrackRequests & { requests: number };
  throttling: ThrottlingSummary;
  abortedBecause?: string | undefined;
  fatal?: unknown;
  phases: PhaseTime[];
  /** The CSV dialect the files were written in (the first source's), for the CLI to name. */
  format: { delimiter?: string | undefined; quote?: string | undefined };
}
