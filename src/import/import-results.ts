import { rm } from 'node:fs/promises';
import { plainDialect, writtenDialectOf } from '../csv/layout.js';
import { jobResourceFailure } from '../files/resource-failure.js';
import { temporaryBeside } from '../files/own-file.js';
import {
  resultsFormatOf,
  writeResultRecords,
  writeResults,
  type ResultsFormat,
  type ResultsSummary,
} from '../job-files/import/write-results.js';
import type { Thinned } from '../journal/retention-meta.js';
import { fieldColumns } from '../mapping/columns-read.js';
import type { Journal } from './journal/journal.js';
import type { ImportPlan } from './plan.js';
import type { SettledRows } from './settled-rows.js';
import { settledResultRecords } from './settled-results.js';
import { resultRecordsReadAgain } from './thinned/read-again.js';

/*
 * The import's results file (docs/import.md, "The results CSV"): written while claims are sent,
 * or at the end for a thinned journal, and what a killed run left of it removed by the next.
 */

/**
 * The results file while claims are sent, a page as each thousand rows settle
 * (src/import/settled-results.ts). Its temporary file is recorded in the journal before it is
 * made, so that the next run removes what a run killed meanwhile leaves.
 */
export async function writeResultsAsSettled(
  journal: Journal,
  journalFile: string,
  plan: ImportPlan,
  settled: SettledRows,
): Promise<ResultsSummary> {
  const { sourceColumns, format } = resultsLayout(journal, plan);
  const temporary = temporaryBeside(plan.resultsFile);
  // Committed on its own, before the file exists.
  journal.flush();
  journal.meta.set('results_temporary', temporary);
  try {
    return await writeResultRecords(
      settledResultRecords(journal, settled),
      sourceColumns,
      plan.resultsFile,
      format,
      { cellsMasked: true },
      { temporary },
    );
  } catch (error) {
    throw jobResourceFailure(error, { journal: journalFile, file: plan.resultsFile });
  } finally {
    // Renamed or removed by now; a journal that cannot record it leaves a name the next run finds gone.
    try {
      journal.meta.delete('results_temporary');
    } catch {
      // The run already reports the journal's failure.
    }
  }
}

/** What a killed run's results left beside the results file (writeResultsAsSettled), removed. */
export async function removeLeftoverResults(journal: Journal, logger: ImportPlan['logger']): Promise<void> {
  const left = journal.meta.get('results_temporary');
  if (left === undefined) return;
  try {
    // A link planted at the name is removed, never followed.
    await rm(left, { force: true });
    logger.info({ file: left }, 'removed the results an earlier run left half written');
  } catch (error) {
    logger.warn({ file: left, error: (error as Error).message }, 'could not remove what an earlier run left');
  }
  journal.meta.delete('results_temporary');
}

/** The results' columns and format, as the journal records them. */
function resultsLayout(journal: Journal, plan: ImportPlan): { sourceColumns: string[]; format: ResultsFormat } {
  const { mapping } = plan.mapping;
  const sourceColumns = journal.meta.get('source_columns') ?? [];
  // A journal staged before the dialect was recorded gets its mapping's delimiter, quote and
  // encoding with LF and no mark, near enough to what it wrote then.
  const dialect = journal.meta.get('results_dialect') ?? writtenDialectOf(mapping.csv, plainDialect);
  return { sourceColumns, format: resultsFormatOf(plan.resultsFile, dialect, fieldColumns(mapping)) };
}

/**
 * The results file at the end, from the journal alone: every input row once, in the input's
 * dialect or as a workbook. A thinned journal's cells are read again from the input (src/import/thinned).
 */
export async function writeImportResults(
  journal: Journal,
  journalFile: string,
  plan: ImportPlan,
  thinned: Thinned | undefined,
): Promise<ResultsSummary> {
  const { mapping } = plan.mapping;
  const { sourceColumns, format } = resultsLayout(journal, plan);
  const written =
    thinned === undefined
      ? writeResults(journal, sourceColumns, plan.resultsFile, format)
      : writeResultRecords(
          resultRecordsReadAgain(journal.database, {
            source: plan.input.source,
            kind: plan.input.kind,
            sheet: plan.input.sheet,
            mapping,
            mappingFile: plan.mapping.file,
            journalFile: plan.journalFile ?? journalFile,
          }),
          sourceColumns,
          plan.resultsFile,
          format,
          { cellsMasked: true },
        );
  return written.catch((error: unknown) => {
    throw jobResourceFailure(error, { journal: journalFile, file: plan.resultsFile });
  });
}
