import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import {
  compareService,
  describeService,
  serviceFrom,
  ServiceMismatchError,
  type ServiceIdentity,
} from '../api/service-identity.js';
import type { ExportResource } from './columns.js';
import { resourceFailure } from '../files/resource-failure.js';
import { expectOwnPath, ownMode, temporaryBeside, temporaryFlags } from '../files/own-file.js';
import { RefusalError, codeOf } from '../errors/coded-error.js';

/**
 * A state file that cannot be used: unreadable, not ours, or another list's. The run stops before
 * anything is exported (the CLI maps it to exit 2, usage).
 */
export class ExportStateError extends RefusalError {
  readonly code = 'EXPORT_STATE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ExportStateError';
  }
}

/**
 * The bookmark of an incremental export (the nightly job's): the newest record id exported so far,
 * and which list it belongs to, so a state file is never used for another list.
 */
export interface ExportState {
  resource: ExportResource;
  /** The newest id exported so far; null while nothing has been. */
  bookmark: string | null;
  /** When the last successful run ended, for a person reading the file. */
  updated: string;
  /**
   * The service the bookmark is an id of: another service's events are not ordered after it, so its
   * bookmark would skip them. Undefined in a file written before it was recorded.
   */
  service?: ServiceIdentity | undefined;
}

/** A `--state` file as read: undefined `recorded` on the first run (no file yet). */
export interface ExportStateFile {
  readonly file: string;
  readonly recorded: ExportState | undefined;
}

export async function readStateFile(file: string, resource: ExportResource): Promise<ExportStateFile> {
  return { file, recorded: await readState(file, resource) };
}

/** The state in `file`, or undefined on the first run (no file yet). */
export async function readState(file: string, resource: ExportResource): Promise<ExportState | undefined> {
  let text: string;
  // Read and then replaced: a link at its name is refused, not read (docs/data.md).
  expectOwnPath(file);
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw new ExportStateError(
      `--state ${file}: expected a readable state file, got ${codeOf(error) ?? 'unreadable'}`,
      { cause: error },
    );
  }
  const state = parseState(text);
  if (state === undefined)
    throw new ExportStateError(
      `--state ${file}: expected a state file written by bulk-disputes export, got something else`,
    );
  // Another list's bookmark would page from an id this list does not hold.
  if (state.resource !== resource)
    throw new ExportStateError(`--state ${file}: expected a state file for ${resource}, got one for ${state.resource}`);
  return state;
}

function parseState(text: string): ExportState | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { resource, bookmark, updated, service } = value as Record<string, unknown>;
  if (typeof resource !== 'string' || !(bookmark === null || (typeof bookmark === 'string' && bookmark !== '')))
    return undefined;
  return {
    resource: resource as ExportResource,
    bookmark,
    updated: typeof updated === 'string' ? updated : '',
    service: serviceFrom(service),
  };
}

/**
 * A bookmark belongs to the service it was taken from: against another one the run stops before
 * anything is read. `unrecorded`: a state file written before services were recorded, taken as this
 * service's once (the next successful run records it).
 */
export function checkStateService(state: ExportState, file: string, current: ServiceIdentity): 'same' | 'unrecorded' {
  const verdict = compareService(state.service, current);
  if (verdict.kind !== 'other') return verdict.kind;
  throw new ServiceMismatchError(
    `--state ${file}: expected a bookmark taken from ${describeService(current)}, got one taken from ${describeService(verdict.recorded)}; ` +
      "its bookmark is an id of that service, and exporting after it here would skip this service's records, so nothing was exported. " +
      'Use --state FILE of its own for this service, or --restart to export everything from this service and start the bookmark over',
  );
}

/** Written to a temporary file and renamed: a crash leaves the old bookmark or the new one, never half. */
export async function writeState(file: string, state: ExportState): Promise<void> {
  const temporary = temporaryBeside(file);
  try {
    // Owner-only like every file the tool writes, and never through a link (own-file.ts).
    await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: ownMode, flag: temporaryFlags });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    // A full disk names the state file; the old bookmark is still in it.
    throw resourceFailure(error, file) ?? error;
  }
}
