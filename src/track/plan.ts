import type { Logger } from 'pino';
import type { ServiceIdentity } from '../api/service-identity.js';
import { identityOf, type ServiceTarget } from '../api/service-target.js';
import type { Progress } from '../progress/progress.js';
import { resolvePacing, type Pacing, type SendingOptions } from '../rate/pacing.js';

/**
 * A track run, resolved once (docs/architecture.md, "A job's plan"): what it was asked for (the
 * CLI's flags) decided before any step runs, into one typed plan that every step takes the part it
 * needs of. Track reads only, so it has no dry run and no mode: whether a run is the first, a full
 * one or incremental is the journal's to say (run-track.ts), not the request's.
 */

/** What a track run is asked to do: what the CLI's flags resolve to. */
export interface TrackRequest extends SendingOptions {
  /** Journals, results files or lists naming the cases to follow, in argument order (sources.ts). */
  sources: readonly string[];
  /** Every case of the key's environment, with or without sources. */
  all?: boolean | undefined;
  /** A list's header holding the ids (default: claim_id, or case_id). */
  column?: string | undefined;
  service: ServiceTarget;
  /** What the page names as the service it read (default: nothing). */
  serviceName?: string | undefined;
  journalFile: string;
  statusFile: string;
  /** Undefined: the worklist is a sheet of the status workbook (the status file must be .xlsx). */
  worklistFile?: string | undefined;
  /** The summary as a page (`--html`), when asked for. */
  htmlFile?: string | undefined;
  /** Start over a journal made against another service. */
  restart?: boolean | undefined;
  /** Read every case again, whatever the events say. */
  full?: boolean | undefined;
  /** A case due within this many days is on the worklist. */
  dueWithinDays: number;
  /** The time days left are counted from (ms); default the machine's clock when the files are written. */
  asOf?: number | undefined;
  progress?: Progress | undefined;
}

/** What the run follows: the sources' rows, or with `all` every case of the key's environment too. */
export interface TrackSources {
  readonly files: readonly string[];
  readonly all: boolean;
  readonly column: string | undefined;
}

/** The files track writes: its journal, the status file, the worklist (a file, or a sheet of the status workbook), the page. */
export interface TrackFiles {
  readonly journalFile: string;
  readonly statusFile: string;
  readonly worklistFile: string | undefined;
  readonly htmlFile: string | undefined;
}

/** What goes on the worklist, and the time its days left are counted from. */
export interface TrackWorklist {
  readonly dueWithinDays: number;
  readonly asOf: () => number;
}

export interface TrackPlan {
  readonly sources: TrackSources;
  readonly files: TrackFiles;
  /** Where to read the cases; reads only. */
  readonly service: ServiceTarget;
  /** What the journal records of `service`: a journal of another is refused. */
  readonly identity: ServiceIdentity;
  /** What the page names as the service it read. */
  readonly serviceName: string;
  readonly restart: boolean;
  readonly full: boolean;
  readonly worklist: TrackWorklist;
  readonly pacing: Pacing;
  readonly logger: Logger;
  readonly progress: Progress | undefined;
}

/** Track's breaker default: 5 reads failed on the service's side in the last minute (docs/rate-limits.md). */
const breakerThreshold = 5;

export function resolveTrackPlan(request: TrackRequest): TrackPlan {
  const { asOf } = request;
  return {
    sources: { files: request.sources, all: request.all === true, column: request.column },
    files: {
      journalFile: request.journalFile,
      statusFile: request.statusFile,
      worklistFile: request.worklistFile,
      htmlFile: request.htmlFile,
    },
    service: request.service,
    identity: identityOf(request.service),
    serviceName: request.serviceName ?? '',
    restart: request.restart === true,
    full: request.full === true,
    worklist: { dueWithinDays: request.dueWithinDays, asOf: asOf === undefined ? Date.now : () => asOf },
    pacing: resolvePacing(request, { breakerThreshold }),
    logger: request.logger,
    progress: request.progress,
  };
}
