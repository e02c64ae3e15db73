import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { ClaimsClient } from '../api/client/index.js';
import type { NetworkOptions } from '../api/client/config.js';
import { serviceAt, type ServiceIdentity } from '../api/service-identity.js';
import { plainDialect, writtenDialectOf, type WrittenDialect } from '../csv/layout.js';
import { MappingError, parseMapping } from '../mapping/load.js';
import type { ThrottlingSummary } from '../rate/follow-throttling.js';
import type { Mapping } from '../mapping/schema.js';
import type { ClaimBody } from './claim/body.js';
import { EvidenceUploads } from './claim/evidence.js';
import type { Shard } from './ids.js';
import { evidenceDirKey, journalFormat, JournalMismatchError } from './journal/schema.js';
import { Journal } from './journal/journal.js';
import { bindService } from './journal/service-binding.js';
import { processClaims, type ProcessSummary } from './process-claims.js';
import type { Progress } from './progress.js';
import { fieldColumnsKey, inputKindKey, resultsDialectKey, resultsFormatOf, writeResults, type ResultsSummary } from './results/write-results.js';
import { fieldColumns } from '../mapping/source-columns.js';
import { isWorkbookFile } from '../workbook/read-rows.js';
import { stageRows } from './stage/index.js';

export interface ImportOptions {
  input: string;
  /** A workbook input's sheet (default: its first). */
  sheet?: string | undefined;
  mappingFile: string;
  resultsFile: string;
  /** The job's journal; a dry run without one uses a temporary journal, removed at the end. */
  journalFile: string | undefined;
  evidenceDir: string;
  /** `--id-prefix`: replaces the mapping's `claim.id_prefix` for this job (issue 28: a new id generation after a withdrawal). */
  idPrefix?: string | undefined;
  /** Overrides the mapping's `file_mode`. */
  fileMode?: Mapping['file_mode'] | undefined;
  concurrency: number;
  /** Requests per second for the whole job (`--max-rps`, issue 13); undefined: no limit. */
  maxRps?: number | undefined;
  dryRun: boolean;
  payloadsFile?: string | undefined;
  shard?: Shard | undefined;
  /** Start a journal made for another input, mapping or flags over. */
  restart: boolean;
  /**
   * Where to send; absent in a dry run. `identity` names it in the journal (issue 19); by default
   * the base URL and the key's environment (the CLI passes the embedded sandbox's data file).
   */
  service: { baseUrl: string; apiKey: string; identity?: ServiceIdentity | undefined; network?: NetworkOptions | undefined } | undefined;
  logger: Logger;
  progress?: Progress | undefined;
  stopRequested?: () => boolean;
  breakerThreshold?: number;
}

export interface ImportReport {
  summary: ResultsSummary;
  /** Claims in the journal (this shard's), whatever their outcome. */
  claims: number;
  resultsFile: string;
  /** Set when the run stopped early (service down, key refused, signal): run it again to continue. */
  abortedBecause: string | undefined;
  /** What stopped the run, when it is an error (a refused key, a failing disk): the caller rethrows it. */
  fatal?: unknown;
  /** How often the service throttled, and where the claims in flight settled; absent in a dry run (issue 13). */
  throttling?: ThrottlingSummary | undefined;
}

/**
 * The import (architecture.md, "The pipeline"): stage every row into the journal, then each claim
 * through evidence, create and filing, then the results CSV from the journal. Run again with the
 * same arguments, it continues where the journal stands and never creates a claim twice.
 */
export async function runImport(options: ImportOptions): Promise<ImportReport> {
  const mappingText = await readFile(options.mappingFile, 'utf8').catch((error: unknown) => {
    throw new MappingError(options.mappingFile, [{ field: '', line: undefined, message: `expected a readable mapping file, got ${(error as { code?: string }).code ?? 'unreadable'}` }]);
  });
  const parsed = parseMapping(mappingText, options.mappingFile);
  const mapping = options.idPrefix === undefined ? parsed : { ...parsed, claim: { ...parsed.claim, id_prefix: options.idPrefix } };
  const fileMode = options.fileMode ?? mapping.file_mode;
  const fingerprint = JSON.stringify({
    format: journalFormat,
    input: await sha256Of(options.input),
    mapping: createHash('sha256').update(mappingText).digest('hex'),
    fileMode,
    shard: options.shard ?? null,
    dryRun: options.dryRun,
    // Another sheet of the same workbook is another input (absent for CSV: fingerprints of older journals hold).
    sheet: options.sheet,
    // Absent without the flag: fingerprints of journals made before it hold.
    idPrefix: options.idPrefix,
  });
  const temporaryDir = options.journalFile === undefined ? await mkdtemp(join(tmpdir(), 'bulk-disputes-')) : undefined;
  const journal = new Journal(options.journalFile ?? join(temporaryDir ?? '', 'journal.sqlite'));
  try {
    prepareJournal(journal, fingerprint, options);
    journal.setMeta(evidenceDirKey, resolve(options.evidenceDir));
    const resuming = journal.meta('staged') === '1';
    if (!resuming) {
      const staged = await stageRows({
        input: isWorkbookFile(options.input) ? { workbook: options.input, sheet: options.sheet } : createReadStream(options.input),
        mapping,
        journal,
        shard: options.shard,
        onProgress: (rows) => options.progress?.staged(rows),
      });
      journal.setMeta('source_columns', JSON.stringify(staged.sourceColumns));
      // What the results CSV is written in, kept for a resumed run and for merge-results (issue 13).
      journal.setMeta(resultsDialectKey, JSON.stringify(writtenDialectOf(mapping.csv, staged.layout)));
      // Which source cells each field reads, for a results workbook written from the journal alone (merge-results, report --xlsx).
      journal.setMeta(fieldColumnsKey, JSON.stringify(fieldColumns(mapping)));
      journal.setMeta(inputKindKey, isWorkbookFile(options.input) ? 'xlsx' : 'csv');
      journal.setMeta('staged', '1');
      options.logger.info({ rows: staged.rowsRead, resultsInput: staged.resultsInput }, 'input staged');
    } else {
      options.logger.info({ journal: options.journalFile }, 'resuming from the journal');
    }

    let abortedBecause: string | undefined;
    let fatal: unknown;
    let throttling: ThrottlingSummary | undefined;
    try {
      ({ abortedBecause, throttling } = await sendClaims(journal, { ...options, fileMode }, resuming));
    } catch (error) {
      // A refused key or a failing disk stops the run; the results still account for every row.
      fatal = error;
      abortedBecause = (error as Error).message;
    }
    options.progress?.done();
    // The last turn's group commit, before the results read the journal statement by statement.
    journal.flush();
    const sourceColumns = JSON.parse(journal.meta('source_columns') ?? '[]') as string[];
    const format = resultsFormatOf(options.resultsFile, resultsDialectOf(journal.meta(resultsDialectKey), mapping), fieldColumns(mapping));
    const summary = await writeResults(journal, sourceColumns, options.resultsFile, format);
    return { summary, claims: journal.counts().claims, resultsFile: options.resultsFile, abortedBecause, fatal, throttling };
  } finally {
    journal.close();
    if (temporaryDir !== undefined) await rm(temporaryDir, { recursive: true, force: true });
  }
}

/**
 * The dialect recorded at staging. A journal staged before it was recorded (issue 13) gets its
 * mapping's delimiter, quote and encoding with LF and no mark, near enough to what it wrote then.
 */
function resultsDialectOf(recorded: string | undefined, mapping: Mapping): WrittenDialect {
  if (recorded !== undefined) return JSON.parse(recorded) as WrittenDialect;
  return writtenDialectOf(mapping.csv, plainDialect);
}

function prepareJournal(journal: Journal, fingerprint: string, options: ImportOptions): void {
  // Before the fingerprint: a journal of another service is refused whatever else changed.
  if (options.service !== undefined) {
    const binding = bindService(journal, options.service.identity ?? serviceAt(options.service.baseUrl, options.service.apiKey), {
      file: options.journalFile ?? 'journal',
      restart: options.restart,
      holdsJob: journal.meta('fingerprint') !== undefined,
      holdsServiceData: journal.holdsServiceData(),
      logger: options.logger,
    });
    if (binding === 'forget') journal.reset({ forgetService: true });
  }
  const recorded = journal.meta('fingerprint');
  if (recorded !== undefined && recorded !== fingerprint && !options.restart) {
    throw new JournalMismatchError(
      `journal ${options.journalFile ?? ''}: expected the input, mapping and flags it was made with, got different ones; ` +
        'use --restart to start it over (created claims are recognised, never duplicated) or --journal for a new one',
    );
  }
  if (recorded !== fingerprint || journal.meta('staged') !== '1') {
    // Nothing is sent before staging completes, so a half-staged journal is simply staged again.
    journal.reset();
    journal.setMeta('fingerprint', fingerprint);
  }
}

async function sendClaims(journal: Journal, options: ImportOptions & { fileMode: Mapping['file_mode'] }, resuming: boolean): Promise<ProcessSummary> {
  const connect = (service: NonNullable<ImportOptions['service']>) => new ClaimsClient({ baseUrl: service.baseUrl, apiKey: service.apiKey, concurrency: options.concurrency, maxRps: options.maxRps, logger: options.logger, network: service.network });
  const client = options.service === undefined || options.dryRun ? undefined : connect(options.service);
  // A dry run given a service reads from it, to compare a feed-back with what it holds (issue 20).
  const reader = options.service !== undefined && options.dryRun ? connect(options.service) : undefined;
  // A resumed job adds the claims it sends now to the bodies written before.
  // Bodies hold cardholder details: readable by the owner only.
  const payloads = options.payloadsFile === undefined ? undefined : createWriteStream(options.payloadsFile, { flags: resuming ? 'a' : 'w', mode: 0o600 });
  let payloadsFailed: Error | undefined;
  payloads?.on('error', (error) => {
    payloadsFailed ??= error;
  });
  const total = journal.pendingCount();
  let done = 0;
  try {
    const processed = await processClaims({
      journal,
      client,
      reader,
      uploads: client === undefined ? undefined : new EvidenceUploads(journal, client),
      evidenceDir: options.evidenceDir,
      fileMode: options.fileMode,
      concurrency: options.concurrency,
      breakerThreshold: options.breakerThreshold ?? 5,
      logger: options.logger,
      stopRequested: options.stopRequested,
      onClaimDone: () => options.progress?.claims(++done, total),
      onPayload:
        payloads === undefined
          ? undefined
          : async (body: ClaimBody) => {
              if (payloadsFailed !== undefined) throw payloadsFailed;
              if (!payloads.write(`${JSON.stringify(body)}\n`)) await once(payloads, 'drain');
            },
    });
    if (processed.abortedBecause !== undefined) options.logger.error({ reason: processed.abortedBecause }, 'run stopped early; run the same command again to continue');
    return processed;
  } finally {
    await client?.close();
    await reader?.close();
    if (payloads !== undefined) {
      payloads.end();
      await finished(payloads);
    }
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}
