import { createHash } from 'node:crypto';
import { fileSha256 } from '../files/file-sha256.js';
import { readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { NetworkOptions } from '../api/client/config.js';
import type { ServiceTarget } from '../api/service-target.js';
import { codeOf } from '../errors/coded-error.js';
import type { EvidenceDirSetBy } from '../evidence/index.js';
import type { Shard } from '../job-files/claims/ids.js';
import { journalFormat, type ImportFingerprint } from '../job-files/import/meta.js';
import { MappingError, parseMapping } from '../mapping/load.js';
import type { Mapping } from '../mapping/schema.js';
import type { Progress } from '../progress/progress.js';
import type { EvidenceFolder } from './claim/evidence.js';
import { resolvePacing, type Pacing, type SendingOptions } from '../rate/pacing.js';
import { isWorkbookFile } from '../workbook/read-rows.js';
import type { ObjectStore } from '../storage/object-store.js';
import { StoreOnDemand } from '../storage/store-on-demand.js';
import { fileSource, type ByteSource } from '../files/byte-source.js';
import { isObjectAddress, parseObjectAddress } from '../storage/object-address.js';
import { objectSource } from '../storage/object-source.js';
import { objectFingerprint } from '../job-files/import/input-fingerprint.js';
import type { StoreNetwork } from '../storage/store-connection.js';
import { resolveEvidence } from './evidence-sources.js';

/**
 * An import, resolved once (docs/architecture.md, "A job's plan"): what it was asked for (the
 * CLI's flags, a library caller's options, the review's fix file), read and decided before any
 * step runs, into one typed plan that every step takes the part it needs of.
 */

/** What an import is asked to do: the library's `runImport` options and what the CLI's flags resolve to. */
export interface ImportRequest extends SendingOptions {
  input: string;
  /** A workbook input's sheet (default: its first). */
  sheet?: string | undefined;
  mappingFile: string;
  resultsFile: string;
  /** The job's journal; a dry run without one uses a temporary journal, removed at the end. */
  journalFile?: string | undefined;
  evidenceDir: string;
  /** Whether `--evidence-dir` named `evidenceDir` or it is the default, the export's folder: evidence messages say which. */
  evidenceDirSetBy?: EvidenceDirSetBy | undefined;
  /** `--id-prefix`: replaces the mapping's `claim.id_prefix` for this job (a new id generation after a withdrawal). */
  idPrefix?: string | undefined;
  /** Overrides the mapping's `file_mode`. */
  fileMode?: Mapping['file_mode'] | undefined;
  /** Check everything, send nothing (the plan's `mode` is then `check`). */
  dryRun?: boolean | undefined;
  /**
   * A dry run's clock for the filing rules: the time the real run would file at (the CLI gives the
   * embedded sandbox's `--sandbox-clock`, running on). Absent: now.
   */
  filingClock?: (() => number) | undefined;
  payloadsFile?: string | undefined;
  shard?: Shard | undefined;
  /** Start a journal made for another input, mapping or flags over. */
  restart?: boolean | undefined;
  /**
   * Import a file whose trailers disagree with what it holds (docs/mappings.md, "Fixed-width files
   * and control records"): its blocks' rows are warned, instead of the run refused.
   */
  acceptTrailerMismatch?: boolean | undefined;
  /**
   * Where to send; a dry run given one only reads from it (to compare a feed-back with what it
   * holds). `identity` names it in the journal, which then belongs to it; by default the base URL
   * and the key's environment (the CLI passes the embedded sandbox's data file).
   */
  service: ServiceTarget | undefined;
  progress?: Progress | undefined;
  /**
   * Called once the journal holds every row, staged now or by an earlier run, before anything is
   * sent: the CLI lets V8's young generation grow from here (heap-tuning.ts says why).
   */
  onStaged?: (() => void) | undefined;
  /**
   * The store an `s3://` export or evidence is read from; by default one made from the environment
   * the first time an address needs it (docs/network.md, "Object storage").
   */
  objectStore?: ObjectStore | undefined;
  /** Remote evidence reads at once (objects and links together); default 16. */
  evidenceFetchConcurrency?: number | undefined;
  /** How evidence links are reached (the CLI's --proxy and --ca-file); default: the service's. */
  evidenceNetwork?: NetworkOptions | undefined;
}

/** The input, as the plan reads it. */
export interface ImportInput {
  /** As given: a path, or `s3://bucket/key`. */
  readonly file: string;
  /** Its bytes, where they are: an object as the plan identified it, each read refused if it changed since. */
  readonly source: ByteSource;
  readonly sheet: string | undefined;
  readonly kind: 'csv' | 'xlsx';
}

/** The mapping, read and checked, with `--id-prefix` applied; its text too, for the fingerprint. */
export interface ImportMapping {
  readonly file: string;
  readonly text: string;
  readonly mapping: Mapping;
  /** `--file-mode`, else the mapping's. */
  readonly fileMode: Mapping['file_mode'];
}

/**
 * Whether the import sends: `send` creates and files claims at `service`; `check` maps and checks
 * everything, files nothing, and judges filing at `filingClock`'s time, reading from `compareWith`
 * (when a service was named) the claims a fed-back file reports created.
 */
export type ImportMode =
  | { readonly kind: 'send'; readonly service: ServiceTarget }
  | { readonly kind: 'check'; readonly filingClock: () => number; readonly compareWith: ServiceTarget | undefined };

export interface ImportPlan {
  readonly input: ImportInput;
  readonly mapping: ImportMapping;
  /** Undefined: a dry run's temporary journal. */
  readonly journalFile: string | undefined;
  readonly resultsFile: string;
  readonly payloadsFile: string | undefined;
  readonly evidence: EvidenceFolder;
  readonly shard: Shard | undefined;
  readonly restart: boolean;
  readonly acceptTrailerMismatch: boolean;
  /** What ties a journal to this job (made-with.ts): the input's and the mapping's bytes, and the flags that change what is sent. */
  readonly fingerprint: ImportFingerprint;
  readonly mode: ImportMode;
  readonly pacing: Pacing;
  readonly logger: Logger;
  readonly progress: Progress | undefined;
  readonly onStaged: () => void;
  /** Made when first needed; closed when the import ends. */
  readonly objects: StoreOnDemand;
}

/** An import's breaker default: 5 claims failed on the service's side in the last minute (docs/rate-limits.md). */
const breakerThreshold = 5;

/** Reads the mapping and hashes the input: everything an import decides before its first step. */
export async function resolveImportPlan(request: ImportRequest): Promise<ImportPlan> {
  const objects = new StoreOnDemand(request.objectStore, storeNetworkOf(request));
  try {
    return await planWith(request, objects);
  } catch (error) {
    objects.close();
    throw error;
  }
}

async function planWith(request: ImportRequest, objects: StoreOnDemand): Promise<ImportPlan> {
  const mapping = await readMapping(request);
  const input: ImportInput = {
    file: request.input,
    source: await sourceOf(request.input, objects),
    sheet: request.sheet,
    kind: isWorkbookFile(request.input) ? 'xlsx' : 'csv',
  };
  const mode = modeOf(request);
  // After the mapping: the store is asked for the credentials only once the mapping is known good.
  const evidence = await resolveEvidence(request, mapping.mapping, objects);
  return {
    input,
    mapping,
    journalFile: request.journalFile,
    resultsFile: request.resultsFile,
    payloadsFile: request.payloadsFile,
    evidence,
    shard: request.shard,
    restart: request.restart === true,
    acceptTrailerMismatch: request.acceptTrailerMismatch === true,
    fingerprint: await fingerprintOf(request, input.source, mapping, mode),
    mode,
    pacing: resolvePacing(request, { breakerThreshold }),
    logger: request.logger,
    progress: request.progress,
    onStaged: request.onStaged ?? (() => undefined),
    objects,
  };
}

/**
 * A local file, or an object identified here, once (HeadObject): every later read is of these
 * bytes or refused, and the journal binds them (`objectFingerprint`).
 */
async function sourceOf(input: string, objects: StoreOnDemand): Promise<ByteSource> {
  if (!isObjectAddress(input)) return fileSource(input);
  const store = objects.get();
  return objectSource(store, await store.identify(parseObjectAddress(input, 'input')));
}

/** The service's proxy and CA, for the store too; a dry run without a service reads the environment's proxy. */
function storeNetworkOf(request: ImportRequest): StoreNetwork {
  const network = request.service?.network;
  return { proxy: network?.proxy, env: network?.env ?? process.env, ca: network?.ca };
}

function modeOf({ dryRun, service, filingClock }: ImportRequest): ImportMode {
  if (dryRun === true) return { kind: 'check', filingClock: filingClock ?? Date.now, compareWith: service };
  if (service === undefined)
    throw new TypeError('an import that sends: expected a service to send to, got none (or ask for a dry run)');
  return { kind: 'send', service };
}

async function readMapping(request: ImportRequest): Promise<ImportMapping> {
  const file = request.mappingFile;
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new MappingError(file, [
      { field: '', line: undefined, message: `expected a readable mapping file, got ${codeOf(error) ?? 'unreadable'}` },
    ]);
  });
  const parsed = parseMapping(text, file);
  const mapping =
    request.idPrefix === undefined ? parsed : { ...parsed, claim: { ...parsed.claim, id_prefix: request.idPrefix } };
  return { file, text, mapping, fileMode: request.fileMode ?? mapping.file_mode };
}

async function fingerprintOf(
  request: ImportRequest,
  source: ByteSource,
  mapping: ImportMapping,
  mode: ImportMode,
): Promise<ImportFingerprint> {
  return {
    format: journalFormat,
    // An object's identity rather than its sha256: hashing it would read it all once more.
    input: source.object === undefined ? await fileSha256(request.input) : objectFingerprint(source.object),
    mapping: createHash('sha256').update(mapping.text).digest('hex'),
    fileMode: mapping.fileMode,
    shard: request.shard ?? null,
    dryRun: mode.kind === 'check',
    // Another sheet of the same workbook is another input (absent for CSV: fingerprints of older journals hold).
    sheet: request.sheet,
    // Absent without the flag: fingerprints of journals made before it hold.
    idPrefix: request.idPrefix,
  };
}
