import { expectReplaceable } from '../files/own-file.js';
import { maskStagedCardNumbers } from '../job-files/import/mask-staged.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { identityOf } from '../api/service-target.js';
import { writtenDialectOf } from '../csv/layout.js';
import { jobResourceFailure, resourceFailure } from '../files/resource-failure.js';
import type { ThrottlingSummary } from '../rate/follow-throttling.js';
import { sameRecord } from '../journal/meta.js';
import { recordWrittenFiles, type Thinned } from '../journal/retention-meta.js';
import { importMismatch } from './made-with.js';
import { Journal } from './journal/journal.js';
import { bindService } from '../journal/service-binding.js';
import { sendClaims } from './send-claims.js';
import { PhaseTimer } from '../progress/phases.js';
import type { ResultsSummary } from '../job-files/import/write-results.js';
import { SettledRows } from './settled-rows.js';
import { removeLeftoverResults, writeImportResults, writeResultsAsSettled } from './import-results.js';
import { refuseThinned, thinnedOn } from '../job-files/import/thinned.js';
import { fieldColumns } from '../mapping/columns-read.js';
import { stageRows } from './stage/index.js';
import { readClaimExtents } from './stage/claim-extents.js';
import { StagingFrontier } from './stage/frontier.js';
import { checkInputHeader } from './input-header.js';
import { checkInputControls, warnRowsOfBlocks } from './check-controls.js';

import { resolveImportPlan, type ImportPlan, type ImportRequest } from './plan.js';
import { isObjectAddress } from '../storage/object-address.js';
import type { ImportReport } from './report.js';

export type { ImportRequest } from './plan.js';
export type { ImportReport } from './report.js';

/**
 * The import (docs/import.md, "What happens, in order"): stage every row into the journal, then
 * each claim through evidence, create and filing, then the results CSV from the journal. Run
 * again with the same arguments, it continues where the journal stands and never creates a claim
 * twice.
 */
export async function runImport(request: ImportRequest): Promise<ImportReport> {
  const phases = new PhaseTimer();
  const startedAt = new Date();
  // Staging starts with reading the mapping and hashing the input.
  phases.next('staging');
  const plan = await resolveImportPlan(request);
  try {
    return await importByPlan(plan, { phases, startedAt });
  } finally {
    // Also when the header or the trailers refuse the input, before the journal is made.
    plan.objects.close();
  }
}

async function importByPlan(
  plan: ImportPlan,
  { phases, startedAt }: { phases: PhaseTimer; startedAt: Date },
): Promise<ImportReport> {
  const { input, mapping, logger } = plan;
  // Before the journal is made: a header that does not fit leaves nothing to resume or to refuse
  // once the mapping is fixed, and no results file (docs/import.md, "What happens, in order").
  await checkInputHeader({
    input: input.source,
    sheet: input.sheet,
    mapping: mapping.mapping,
    mappingFile: mapping.file,
  });
  // And a trailer that disagrees with its block: a file cut short or joined is fetched again, not imported short.
  const trailerMismatches = await checkInputControls({
    input: input.source,
    sheet: input.sheet,
    mapping: mapping.mapping,
    accept: plan.acceptTrailerMismatch,
  });
  for (const mismatch of trailerMismatches)
    logger.warn(
      { input: input.file, line: mismatch.line, code: mismatch.code },
      `${mismatch.message}; imported all the same (--accept-trailer-mismatch), its rows warned`,
    );
  // A folder where the results or the payloads go would only fail once every claim was sent.
  expectReplaceable(plan.resultsFile);
  if (plan.payloadsFile !== undefined) expectReplaceable(plan.payloadsFile);
  const temporaryDir = plan.journalFile === undefined ? await mkdtemp(join(tmpdir(), 'bulk-disputes-')) : undefined;
  const journalFile = plan.journalFile ?? join(temporaryDir ?? '', 'journal.sqlite');
  const journal = openJournal(journalFile);
  const settled = new SettledRows();
  let results: Promise<ResultsSummary> | undefined;
  try {
    await removeLeftoverResults(journal, logger);
    prepareJournal(journal, plan);
    journal.meta.set('evidence_dir', localOrObject(plan.evidence.evidenceDir));
    journal.meta.set('mapping_file', resolve(mapping.file));
    if (plan.journalFile !== undefined)
      recordWrittenFiles(journal.meta, [
        { path: resolve(plan.resultsFile), role: 'results' },
        plan.payloadsFile === undefined ? undefined : { path: resolve(plan.payloadsFile), role: 'payloads' },
      ]);
    const resuming = journal.meta.get('staged') === true;
    // Staging that goes on while the first claims are sent; awaited before the results.
    let staging: Promise<void> | undefined;
    let frontier: StagingFrontier | undefined;
    if (!resuming) {
      frontier = await frontierOf(plan);
      staging = stageInput(journal, plan, frontier).then(() => {
        warnRowsOfBlocks(journal, trailerMismatches);
        plan.onStaged();
        phases.stop('staging');
        frontier?.end();
      });
      if (frontier === undefined) await staging;
      else
        staging.catch((error: unknown) => {
          frontier?.fail(error);
        });
    } else {
      phases.rename('resuming');
      const journalLogger = logger.child({ journal: plan.journalFile });
      journalLogger.info('resuming from the journal');
      const masked = maskStagedCardNumbers(journal.database, journal.meta);
      if (masked > 0)
        journalLogger.warn(
          { rows: masked },
          `the journal was staged by an earlier version, which kept card numbers as read: ${masked} rows masked in place before sending`,
        );
    }

    const thinned = resuming ? journal.meta.get('thinned') : undefined;
    if (thinned !== undefined) refuseThinnedWithClaimsToSend(journal, journalFile, thinned);
    if (resuming) plan.onStaged();
    // The results are written as the rows settle, from when staging has ended (its last check can
    // still move rows between claims), so that little is left to write once the last answer is in.
    // A thinned journal's cells are read again from the input, once, at the end.
    if (thinned === undefined)
      void (staging ?? Promise.resolve()).then(
        () => {
          results = writeResultsAsSettled(journal, journalFile, plan, settled);
          // Awaited below, or when the run stops before.
          results.catch(() => undefined);
        },
        () => undefined,
      );
    const nothingToSend = resuming ? nothingToSendOf(journal) : undefined;
    // This run settles what it finds to do: a later one with nothing left names it. Written before
    // sending, so that a disk that fills while sending still leaves the results written below.
    if (nothingToSend === undefined) journal.meta.set('settled_by_run_at', startedAt.toISOString());
    let abortedBecause: string | undefined;
    let fatal: unknown;
    let throttling: ThrottlingSummary | undefined;
    const sendingPhase = plan.mode.kind === 'check' ? 'checking' : 'sending';
    if (frontier === undefined) phases.next(sendingPhase);
    // Sending starts with its first claim, while staging goes on or once it has ended.
    const alongside =
      frontier === undefined
        ? undefined
        : {
            frontier,
            onFirstClaim: () => {
              phases.alongside(sendingPhase);
            },
          };
    try {
      ({ abortedBecause, throttling } = await sendClaims(journal, plan, { resuming, alongside, settled }));
    } catch (error) {
      // A refused key or a failing disk stops the run; the results still account for every row.
      fatal = jobResourceFailure(error, { journal: journalFile });
      abortedBecause = (fatal as Error).message;
    }
    settled.end();
    // A staging that failed stops the run as it did before anything was sent; the claims sent
    // meanwhile are found at the service by the next run, never sent twice (docs/import.md, "Resume").
    await staging;
    plan.progress?.done();
    phases.next('results');
    // The last turn's group commit, before the last rows are read.
    journal.flush();
    const summary = await (results ?? writeImportResults(journal, journalFile, plan, thinned));
    results = undefined;
    if (thinned !== undefined) logger.info({ journal: journalFile }, cellsReadAgainSentence(thinned));
    return {
      mode: plan.mode.kind,
      summary,
      claims: journal.counts().claims,
      claimsByOutcome: journal.claimOutcomes(),
      resultsFile: plan.resultsFile,
      abortedBecause,
      fatal,
      throttling,
      phases: phases.end(),
      nothingToSend,
      cellsReadAgain: thinned === undefined ? undefined : cellsReadAgainSentence(thinned),
      linesOutside: journal.meta.get('lines_outside'),
      trailerMismatches: trailerMismatches.length === 0 ? undefined : trailerMismatches,
    };
  } catch (error) {
    // A full disk, a refused or read-only folder, a file gone: in words naming the file.
    throw jobResourceFailure(error, { journal: journalFile });
  } finally {
    // A failure mid-staging too leaves no progress line drawn, nor its ticker running.
    plan.progress?.done();
    // A run that stops on a failure leaves no results half written.
    if (results !== undefined) {
      settled.fail(new Error('the import stopped before its results were written'));
      await results.catch(() => undefined);
    }
    journal.close();
    plan.objects.close();
    if (temporaryDir !== undefined) await rm(temporaryDir, { recursive: true, force: true });
  }
}

/**
 * Claims are sent while staging goes on where that changes nothing: a first staging of a CSV or
 * fixed-width export that is sent (a dry run has nothing to overlap), not one shard of it (another
 * shard's rows decide this one's duplicates) and not one of our results files fed back
 * (readClaimExtents). A workbook is staged whole first: reading it twice would cost more than it saves.
 */
async function frontierOf(plan: ImportPlan): Promise<StagingFrontier | undefined> {
  if (plan.mode.kind !== 'send' || plan.input.kind !== 'csv' || plan.shard !== undefined) return undefined;
  const stream = await plan.input.source.open();
  try {
    const extents = await readClaimExtents({
      input: stream,
      mapping: plan.mapping.mapping,
      mappingFile: plan.mapping.file,
    });
    return extents === undefined ? undefined : new StagingFrontier(extents);
  } finally {
    // A results file is known by its header: the rest is not read.
    stream.destroy();
  }
}

/** Every row of the input into the journal, grouped by claim; what the results need of the input recorded beside them. */
async function stageInput(journal: Journal, plan: ImportPlan, frontier?: StagingFrontier): Promise<void> {
  const { input, mapping, progress } = plan;
  const stream = input.kind === 'xlsx' ? undefined : await input.source.open();
  // The share of the file read, from its size: a CSV's bytes read so far cost nothing to ask (a workbook's rows only).
  const sizeBytes = stream === undefined ? 0 : await input.source.size();
  progress?.begin({ label: 'staging', unit: 'rows' });
  const staged = await stageRows({
    input: stream ?? { workbook: input.source, sheet: input.sheet },
    mapping: mapping.mapping,
    mappingFile: mapping.file,
    journal,
    shard: plan.shard,
    onChecked:
      frontier === undefined
        ? undefined
        : (index) => {
            frontier.checked(index);
          },
    onProgress: (rows) =>
      progress?.staged(
        rows,
        'rows',
        stream === undefined || sizeBytes === 0 ? undefined : stream.bytesRead / sizeBytes,
      ),
  });
  journal.meta.set('source_columns', staged.sourceColumns);
  if (staged.linesOutside !== undefined) journal.meta.set('lines_outside', staged.linesOutside);
  // What the results CSV is written in, kept for a resumed run and for merge-results.
  journal.meta.set('results_dialect', writtenDialectOf(mapping.mapping.csv, staged.layout));
  // Which source cells each field reads, for a results workbook written from the journal alone (merge-results, report --xlsx).
  journal.meta.set('field_columns', fieldColumns(mapping.mapping));
  journal.meta.set('input_kind', input.kind);
  journal.meta.set('card_numbers_masked', '1');
  journal.meta.set('staged', true);
  plan.logger.info({ rows: staged.rowsRead, resultsInput: staged.resultsInput }, 'input staged');
}

/**
 * A thinned journal has only finished claims to give results for (prune thins finished jobs):
 * one left to send would go with its case as thinned. Staged afresh instead, before anything is sent.
 */
function refuseThinnedWithClaimsToSend(journal: Journal, journalFile: string, thinned: Thinned): void {
  if (journal.pendingCount() === 0) return;
  refuseThinned(journalFile, thinned, {
    needs: 'its unfinished claims are sent from their cases as mapped, which prune removed',
    instead:
      'run the same command with --restart: it stages the input afresh, and claims already sent are found at the service, not sent again',
  });
}

/** The run's one sentence about a thinned journal (its log, and the summary). */
function cellsReadAgainSentence(thinned: Thinned): string {
  return `the journal was thinned by prune on ${thinnedOn(thinned)}: the results' source cells were read again from the input`;
}

/** Binds the journal to the plan's service and job: a journal of another is refused, or started over with `--restart`. */
function prepareJournal(journal: Journal, plan: ImportPlan): void {
  const { fingerprint, mode } = plan;
  const journalName = plan.journalFile ?? 'journal';
  // Before the fingerprint: a journal of another service is refused whatever else changed.
  const service = mode.kind === 'send' ? mode.service : mode.compareWith;
  if (service !== undefined) {
    const binding = bindService(journal.meta, identityOf(service), {
      file: journalName,
      restart: plan.restart,
      holdsJob: journal.meta.has('fingerprint'),
      holdsServiceData: journal.holdsServiceData(),
      logger: plan.logger,
    });
    if (binding === 'forget') journal.reset({ forgetService: true });
  }
  const madeWith = { mappingText: plan.mapping.text, inputFile: localOrObject(plan.input.file) };
  const recorded = journal.meta.get('fingerprint');
  const same = recorded !== undefined && sameRecord(recorded, fingerprint);
  if (recorded !== undefined && !same && !plan.restart) {
    const files = {
      mappingText: journal.meta.get('made_with_mapping'),
      inputFile: journal.meta.get('made_with_input'),
    };
    throw importMismatch(plan.journalFile ?? '', recorded, fingerprint, files, madeWith);
  }
  // A thinned journal restarted is staged afresh, its cells back (docs/import.md, "Resume").
  const restartThinned = plan.restart && journal.meta.has('thinned');
  if (!same || journal.meta.get('staged') !== true || restartThinned) {
    // Nothing is sent before staging completes, so a half-staged journal is simply staged again.
    journal.reset();
    journal.meta.set('fingerprint', fingerprint);
  }
  // Kept to name what changed when a later run differs (a journal of an earlier version gets them
  // here: its fingerprint matched, so these are the bytes it was made with).
  journal.meta.set('made_with_mapping', madeWith.mappingText);
  journal.meta.set('made_with_input', madeWith.inputFile);
}

/** A resumed journal with no claim left to send: every row settled by an earlier run, named by when it started. */
function nothingToSendOf(journal: Journal): ImportReport['nothingToSend'] {
  if (journal.pendingCount() > 0) return undefined;
  return { settledByRunAt: journal.meta.get('settled_by_run_at') };
}

/** A local path made absolute; an object's `s3://` address (or folder) kept as it is. */
function localOrObject(path: string): string {
  return isObjectAddress(path) ? path : resolve(path);
}

function openJournal(file: string): Journal {
  try {
    return new Journal(file);
  } catch (error) {
    throw resourceFailure(error, file, { resumes: true }) ?? error;
  }
}
