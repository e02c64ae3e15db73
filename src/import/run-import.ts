import { createHash } from 'node:crypto';
import { expectReplaceable } from '../files/own-file.js';
import { cardNumbersMaskedKey, maskStagedCardNumbers } from '../job-files/import/mask-staged.js';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { identityOf } from '../api/service-target.js';
import { plainDialect, writtenDialectOf, type WrittenDialect } from '../csv/layout.js';
import { MappingError, parseMapping } from '../mapping/load.js';
import { jobResourceFailure, resourceFailure } from '../files/resource-failure.js';
import type { ThrottlingSummary } from '../rate/follow-throttling.js';
import type { Mapping } from '../mapping/schema.js';
import {
  evidenceDirKey,
  journalFormat,
  madeWithInputKey,
  madeWithMappingKey,
  mappingFileKey,
  linesOutsideKey,
  settledByRunAtKey,
} from '../job-files/import/schema.js';
import type { LinesOutside } from '../csv/report-region.js';
import { importMismatch, type ImportFingerprint } from './made-with.js';
import { Journal } from './journal/journal.js';
import { bindService } from '../journal/service-binding.js';
import { sendClaims } from './send-claims.js';
import { PhaseTimer } from '../progress/phases.js';
import {
  fieldColumnsKey,
  inputKindKey,
  resultsDialectKey,
  resultsFormatOf,
  writeResults,
  type ResultsSummary,
} from '../job-files/import/write-results.js';
import { fieldColumns } from '../mapping/columns-read.js';
import { isWorkbookFile } from '../workbook/read-rows.js';
import { stageRows } from './stage/index.js';
import { checkInputHeader } from './input-header.js';
import { checkInputControls, warnRowsOfBlocks } from './check-controls.js';
import { codeOf } from '../errors/coded-error.js';

import type { ImportOptions, ImportReport } from './options.js';

export type { ImportOptions, ImportReport } from './options.js';

/**
 * The import (docs/import.md, "What happens, in order"): stage every row into the journal, then
 * each claim through evidence, create and filing, then the results CSV from the journal. Run
 * again with the same arguments, it continues where the journal stands and never creates a claim
 * twice.
 */
export async function runImport(options: ImportOptions): Promise<ImportReport> {
  // Staging starts with reading the mapping and hashing the input.
  const phases = new PhaseTimer();
  const startedAt = new Date();
  phases.next('staging');
  const { mappingText, mapping } = await readMapping(options);
  // Before the journal is made: a header that does not fit leaves nothing to resume or to refuse
  // once the mapping is fixed, and no results file (docs/import.md, "What happens, in order").
  await checkInputHeader({ input: options.input, sheet: options.sheet, mapping, mappingFile: options.mappingFile });
  // And a trailer that disagrees with its block: a file cut short or joined is fetched again, not imported short.
  const trailerMismatches = await checkInputControls({
    input: options.input,
    sheet: options.sheet,
    mapping,
    accept: options.acceptTrailerMismatch,
  });
  for (const mismatch of trailerMismatches)
    options.logger.warn(
      { input: options.input, line: mismatch.line, code: mismatch.code },
      `${mismatch.message}; imported all the same (--accept-trailer-mismatch), its rows warned`,
    );
  // A folder where the results or the payloads go would only fail once every claim was sent.
  expectReplaceable(options.resultsFile);
  if (options.payloadsFile !== undefined) expectReplaceable(options.payloadsFile);
  const fileMode = options.fileMode ?? mapping.file_mode;
  const fingerprint = await fingerprintOf(options, mappingText, fileMode);
  const madeWith = { mappingText, inputFile: resolve(options.input) };
  const temporaryDir = options.journalFile === undefined ? await mkdtemp(join(tmpdir(), 'bulk-disputes-')) : undefined;
  const journalFile = options.journalFile ?? join(temporaryDir ?? '', 'journal.sqlite');
  const journal = openJournal(journalFile);
  try {
    prepareJournal(journal, fingerprint, madeWith, options);
    journal.setMeta(evidenceDirKey, resolve(options.evidenceDir));
    journal.setMeta(mappingFileKey, resolve(options.mappingFile));
    const resuming = journal.meta('staged') === '1';
    if (!resuming) {
      await stageInput(journal, mapping, options);
      warnRowsOfBlocks(journal, trailerMismatches);
    } else {
      phases.rename('resuming');
      options.logger.info({ journal: options.journalFile }, 'resuming from the journal');
      const masked = maskStagedCardNumbers(journal.database);
      if (masked > 0)
        options.logger.warn(
          { journal: options.journalFile, rows: masked },
          `the journal was staged by an earlier version, which kept card numbers as read: ${masked} rows masked in place before sending`,
        );
    }

    options.onStaged?.();
    const nothingToSend = resuming ? nothingToSendOf(journal) : undefined;
    // This run settles what it finds to do: a later one with nothing left names it. Written before
    // sending, so that a disk that fills while sending still leaves the results written below.
    if (nothingToSend === undefined) journal.setMeta(settledByRunAtKey, startedAt.toISOString());
    let abortedBecause: string | undefined;
    let fatal: unknown;
    let throttling: ThrottlingSummary | undefined;
    phases.next(options.dryRun ? 'checking' : 'sending');
    try {
      ({ abortedBecause, throttling } = await sendClaims(journal, { ...options, fileMode }, resuming));
    } catch (error) {
      // A refused key or a failing disk stops the run; the results still account for every row.
      fatal = jobResourceFailure(error, { journal: journalFile });
      abortedBecause = (fatal as Error).message;
    }
    options.progress?.done();
    phases.next('results');
    const summary = await writeImportResults(journal, journalFile, mapping, options);
    return {
      summary,
      claims: journal.counts().claims,
      claimsByOutcome: journal.claimOutcomes(),
      resultsFile: options.resultsFile,
      abortedBecause,
      fatal,
      throttling,
      phases: phases.end(),
      nothingToSend,
      linesOutside: linesOutsideOf(journal),
      trailerMismatches: trailerMismatches.length === 0 ? undefined : trailerMismatches,
    };
  } catch (error) {
    // A full disk, a refused or read-only folder, a file gone: in words naming the file.
    throw jobResourceFailure(error, { journal: journalFile });
  } finally {
    // A failure mid-staging too leaves no progress line drawn, nor its ticker running.
    options.progress?.done();
    journal.close();
    if (temporaryDir !== undefined) await rm(temporaryDir, { recursive: true, force: true });
  }
}

/** The mapping file, read and checked, with `--id-prefix` applied; its text too, for the fingerprint. */
async function readMapping(options: ImportOptions): Promise<{ mappingText: string; mapping: Mapping }> {
  const mappingText = await readFile(options.mappingFile, 'utf8').catch((error: unknown) => {
    throw new MappingError(options.mappingFile, [
      {
        field: '',
        line: undefined,
        message: `expected a readable mapping file, got ${codeOf(error) ?? 'unreadable'}`,
      },
    ]);
  });
  const parsed = parseMapping(mappingText, options.mappingFile);
  const mapping =
    options.idPrefix === undefined ? parsed : { ...parsed, claim: { ...parsed.claim, id_prefix: options.idPrefix } };
  return { mappingText, mapping };
}

/** What ties a journal to its job: the input's and the mapping's bytes, and the flags that change what is sent. */
async function fingerprintOf(
  options: ImportOptions,
  mappingText: string,
  fileMode: Mapping['file_mode'],
): Promise<ImportFingerprint> {
  return {
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
  };
}

/** Every row of the input into the journal, grouped by claim; what the results need of the input recorded beside them. */
async function stageInput(journal: Journal, mapping: Mapping, options: ImportOptions): Promise<void> {
  const input = isWorkbookFile(options.input) ? undefined : createReadStream(options.input);
  // The share of the file read, from its size: a CSV's bytes read so far cost nothing to ask (a workbook's rows only).
  const sizeBytes = input === undefined ? 0 : (await stat(options.input)).size;
  options.progress?.begin({ label: 'staging', unit: 'rows' });
  const staged = await stageRows({
    input: input ?? { workbook: options.input, sheet: options.sheet },
    mapping,
    mappingFile: options.mappingFile,
    journal,
    shard: options.shard,
    onProgress: (rows) =>
      options.progress?.staged(
        rows,
        'rows',
        input === undefined || sizeBytes === 0 ? undefined : input.bytesRead / sizeBytes,
      ),
  });
  journal.setMeta('source_columns', JSON.stringify(staged.sourceColumns));
  if (staged.linesOutside !== undefined) journal.setMeta(linesOutsideKey, JSON.stringify(staged.linesOutside));
  // What the results CSV is written in, kept for a resumed run and for merge-results.
  journal.setMeta(resultsDialectKey, JSON.stringify(writtenDialectOf(mapping.csv, staged.layout)));
  // Which source cells each field reads, for a results workbook written from the journal alone (merge-results, report --xlsx).
  journal.setMeta(fieldColumnsKey, JSON.stringify(fieldColumns(mapping)));
  journal.setMeta(inputKindKey, isWorkbookFile(options.input) ? 'xlsx' : 'csv');
  journal.setMeta(cardNumbersMaskedKey, '1');
  journal.setMeta('staged', '1');
  options.logger.info({ rows: staged.rowsRead, resultsInput: staged.resultsInput }, 'input staged');
}

/** The results file, from the journal alone: every input row once, in the input's dialect or as a workbook. */
async function writeImportResults(
  journal: Journal,
  journalFile: string,
  mapping: Mapping,
  options: ImportOptions,
): Promise<ResultsSummary> {
  // The last turn's group commit, before the results read the journal statement by statement.
  journal.flush();
  const sourceColumns = JSON.parse(journal.meta('source_columns') ?? '[]') as string[];
  const format = resultsFormatOf(
    options.resultsFile,
    resultsDialectOf(journal.meta(resultsDialectKey), mapping),
    fieldColumns(mapping),
  );
  const summary = await writeResults(journal, sourceColumns, options.resultsFile, format).catch((error: unknown) => {
    throw jobResourceFailure(error, { journal: journalFile, file: options.resultsFile });
  });
  return summary;
}

/**
 * The dialect recorded at staging. A journal staged before it was recorded gets its mapping's
 * delimiter, quote and encoding with LF and no mark, near enough to what it wrote then.
 */
function resultsDialectOf(recorded: string | undefined, mapping: Mapping): WrittenDialect {
  if (recorded !== undefined) return JSON.parse(recorded) as WrittenDialect;
  return writtenDialectOf(mapping.csv, plainDialect);
}

function prepareJournal(
  journal: Journal,
  fingerprintParts: ImportFingerprint,
  madeWith: { mappingText: string; inputFile: string },
  options: ImportOptions,
): void {
  const fingerprint = JSON.stringify(fingerprintParts);
  // Before the fingerprint: a journal of another service is refused whatever else changed.
  if (options.service !== undefined) {
    const binding = bindService(journal, identityOf(options.service), {
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
    const files = { mappingText: journal.meta(madeWithMappingKey), inputFile: journal.meta(madeWithInputKey) };
    throw importMismatch(options.journalFile ?? '', recorded, fingerprintParts, files, madeWith);
  }
  if (recorded !== fingerprint || journal.meta('staged') !== '1') {
    // Nothing is sent before staging completes, so a half-staged journal is simply staged again.
    journal.reset();
    journal.setMeta('fingerprint', fingerprint);
  }
  // Kept to name what changed when a later run differs (a journal of an earlier version gets them
  // here: its fingerprint matched, so these are the bytes it was made with).
  journal.setMeta(madeWithMappingKey, madeWith.mappingText);
  journal.setMeta(madeWithInputKey, madeWith.inputFile);
}

/** A resumed journal with no claim left to send: every row settled by an earlier run, named by when it started. */
function nothingToSendOf(journal: Journal): ImportReport['nothingToSend'] {
  if (journal.pendingCount() > 0) return undefined;
  return { settledByRunAt: journal.meta(settledByRunAtKey) };
}

/** The lines outside a report's table, as staging counted them: a resumed run tells them as the first did. */
function linesOutsideOf(journal: Journal): LinesOutside | undefined {
  const recorded = journal.meta(linesOutsideKey);
  return recorded === undefined ? undefined : (JSON.parse(recorded) as LinesOutside);
}

function openJournal(file: string): Journal {
  try {
    return new Journal(file);
  } catch (error) {
    throw resourceFailure(error, file, { resumes: true }) ?? error;
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}
