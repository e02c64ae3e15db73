import type { Logger } from 'pino';
import { identityOf, type ServiceTarget } from '../api/service-target.js';
import { describeService, type ServiceIdentity } from '../api/service-identity.js';
import type { Progress } from '../progress/progress.js';
import type { Pacing, PacingRequest } from '../rate/pacing.js';
import { defaultColumns, type ExportResource } from './columns.js';
import { checkStateService, type ExportStateFile } from './state.js';

/**
 * An export, resolved once (docs/architecture.md, "A job's plan"): what to export, the bookmark
 * it starts after, where the CSV goes, the service it reads and its pace, decided before the first
 * page is read.
 */

/** Where the CSV goes: a file (through a temporary file and a rename), or a text sink such as stdout. */
export type ExportTarget = { file: string } | { sink: { write(text: string): unknown } };

/** What an export is asked to do: what the CLI's flags resolve to. */
export interface ExportRequest extends Pick<PacingRequest, 'maxRps'> {
  resource: ExportResource;
  /** Dot-path columns (columns.ts); default: the resource's. */
  columns?: readonly string[] | undefined;
  target: ExportTarget;
  /**
   * `--state`, read (state.ts `readStateFile`) before the service is chosen: a state file for
   * another list stops the run before the embedded sandbox starts. Absent: everything, no bookmark.
   */
  state?: ExportStateFile | undefined;
  /** Drop the state file's bookmark (also one taken from another service): everything, then a new bookmark. */
  restart?: boolean | undefined;
  /** Where the list is read; a new bookmark records it (`identity`). */
  service: ServiceTarget;
  logger: Logger;
  /** The terminal's progress line (not drawn when the CSV goes to that same terminal). */
  progress?: Progress | undefined;
}

/** `--state`: the file the bookmark is kept in, and the id this run exports after. */
export interface ExportBookmark {
  readonly file: string;
  /** Export only what is newer than this id, oldest first; undefined: everything, newest first. */
  readonly after: string | undefined;
}

export interface ExportPlan {
  readonly resource: ExportResource;
  readonly columns: readonly string[];
  readonly target: ExportTarget;
  readonly bookmark: ExportBookmark | undefined;
  readonly service: ServiceTarget;
  /** What a new bookmark records of the service. */
  readonly serviceIdentity: ServiceIdentity;
  /** An export reads one page at a time: its pace is `--max-rps` alone. */
  readonly pacing: Pick<Pacing, 'maxRps'>;
  readonly logger: Logger;
  readonly progress: Progress | undefined;
}

/** Checked before the first page is read: another service's bookmark would skip this one's records. */
export function resolveExportPlan(request: ExportRequest): ExportPlan {
  const serviceIdentity = identityOf(request.service);
  const { state } = request;
  return {
    resource: request.resource,
    columns: request.columns ?? defaultColumns[request.resource],
    target: request.target,
    bookmark:
      state === undefined
        ? undefined
        : { file: state.file, after: afterOf(state, serviceIdentity, request.restart === true, request.logger) },
    service: request.service,
    serviceIdentity,
    pacing: { maxRps: request.maxRps },
    logger: request.logger,
    progress: request.progress,
  };
}

/**
 * The id to export after: the state file's bookmark, if it is this service's; `--restart` drops it
 * (export everything). A bookmark of nothing yet (null) skips nothing, whichever service it came from.
 */
function afterOf(
  { file, recorded }: ExportStateFile,
  current: ServiceIdentity,
  restart: boolean,
  jobLogger: Logger,
): string | undefined {
  if (recorded === undefined) return undefined;
  const logger = jobLogger.child({ state: file });
  if (restart) {
    logger.warn('--restart: the bookmark is dropped; exporting everything, then a new bookmark for this service');
    return undefined;
  }
  if (recorded.bookmark === null) return undefined;
  if (checkStateService(recorded, file, current) === 'unrecorded') {
    logger.warn(
      { service: describeService(current) },
      `--state ${file} records no service (written before bookmarks recorded one): taken as ${describeService(current)}'s from now on`,
    );
  }
  return recorded.bookmark;
}
