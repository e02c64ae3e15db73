import type { ServiceTarget } from '../api/service-target.js';
import type { WorkItem } from '../job-files/track/worklist.js';
import type { TrackSummary } from '../job-files/track/summary.js';
import type { PhaseTime } from '../progress/phases.js';
import type { Progress } from '../progress/progress.js';
import type { ThrottlingSummary } from '../rate/follow-throttling.js';
import type { SendingOptions } from '../rate/pacing.js';
import type { TrackRequests } from './requests.js';

/** What a track run is asked to do, and what it reports: shared by the run and its steps. */

export interface TrackOptions extends SendingOptions {
  sources: readonly string[];
  /** Every case of the key's environment, with or without sources. */
  all: boolean;
  column?: string | undefined;
  service: ServiceTarget;
  journalFile: string;
  statusFile: string;
  /** Undefined: the worklist is a sheet of the status workbook (the status file must be .xlsx). */
  worklistFile?: string | undefined;
  /** The summary as a page (`--html`), when asked for. */
  htmlFile?: string | undefined;
  /** What the page names as the service it read. */
  serviceName?: string | undefined;
  /** CSV dialect of the files written (the first source's); a workbook ignores it. */
  csvFormat?: { delimiter?: string | undefined; quote?: string | undefined } | undefined;
  restart: boolean;
  /** Read every case again, whatever the events say. */
  full: boolean;
  dueWithinDays: number;
  /** The time days left are counted from (ms); default the machine's clock. */
  asOf?: number | undefined;
  progress?: Progress | undefined;
}

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
