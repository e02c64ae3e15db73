import type { WrittenDialect } from '../csv/layout.js';
import type { ResultRecord } from '../job-files/import/records.js';
import type { Mapping } from '../mapping/schema.js';
import type { Summariser, Summary } from '../job-files/summarise.js';
import { RefusalError } from '../errors/coded-error.js';

/*
 * What a job under review is, whichever job wrote it: the shapes job.ts opens and import-job.ts,
 * migrate-job.ts and withdraw-job.ts each fill in. Apart from job.ts, so that the three import
 * these and job.ts imports them, with no circle between them.
 */

/** Outcomes a reviewer fixes. */
export const outcomesToFix: readonly string[] = ['invalid', 'failed', 'not_filed', 'rejected'];

/** Every row of the job, small: what the overview counts and the filters select on. */
export interface RowEntry {
  readonly line: number;
  /** Which of the job's journals holds it (0 for the first) and its place there. */
  readonly shard: number;
  readonly idx: number;
  readonly outcome: string;
  readonly errorCode: string;
  readonly errorMessage: string;
  readonly errorField: string;
  readonly claimKey: string;
  readonly claimId: string;
  readonly caseId: string;
  readonly toFix: boolean;
}

/** A row to fix, with its cells, and its record for the fix file (a results file: the feed-back import reads its status columns). */
export interface ReviewRow extends RowEntry {
  readonly cells: Readonly<Record<string, string>>;
  readonly record: ResultRecord;
}

interface JobBase {
  /** The job's journals, in shard order. */
  readonly journals: readonly string[];
  /** The first: the review's store and the fix files live beside it. */
  readonly journal: string;
  readonly service: string;
  /** The columns a row shows: the input's, or a migrated case's. */
  readonly columns: readonly string[];
  /** Every row, in input order. */
  readonly entries: readonly RowEntry[];
  /** The rows to fix, with their cells. */
  readonly rows: readonly ReviewRow[];
  /** The report's figures (src/job-files/summarise.ts): the overview shows what `report` shows. */
  readonly summary: Summary;
  /** Claims whose rows ended differently. */
  readonly mixedClaims: ReadonlySet<string>;
  /** Any row's cells (a row not to fix is read from its journal when shown). */
  cellsOf(entry: RowEntry): Readonly<Record<string, string>>;
  /** The outcomes the rows to fix have; a filter on another outcome shows every row. Undefined: any outcome may be among them. */
  readonly fixOutcomes: readonly string[] | undefined;
  /** A fix hint per error code where the job's codes are not the import's (the import's hints otherwise). */
  readonly hints?: Readonly<Record<string, string>>;
  /** Which rows hold `text` in a cell (lower case). */
  matching(text: string): (entry: RowEntry) => boolean;
  close(): Promise<void>;
}

/** An import's journal or its shards: rows are source cells, fixed and fed back. */
export interface ImportReviewJob extends JobBase {
  readonly kind: 'import';
  readonly mapping: Mapping;
  readonly mappingFile: string;
  /** The job's `--id-prefix`, carried into its fix file's import. */
  readonly idPrefix: string | undefined;
  readonly dialect: WrittenDialect | undefined;
  /** Where the job's last run read evidence from (undefined in a journal made before it was recorded). */
  readonly evidenceDir: string | undefined;
  /** What the input was: the fix file's format unless asked otherwise. */
  readonly inputKind: 'csv' | 'xlsx';
  /** Any row's record, for the fix file (a claim goes back whole, whatever its other rows' outcomes). */
  recordOf(entry: RowEntry): ResultRecord;
}

/**
 * A migrate-v1 journal: its rows are v1 cases read from the service, not cells of a file, so
 * there is nothing to edit: the page shows what failed and why, and the command that retries it.
 */
export interface MigrateReviewJob extends JobBase {
  readonly kind: 'migrate-v1';
  /** The run that retries the failed cases (a resumed migration retries them; a rejected case is fixed on the service first). */
  readonly retryCommand: string;
  /** What the page says before the command. */
  readonly retryNote: string;
}

/**
 * A withdraw journal: its lines are what the service said of each case, not cells of a file, so it
 * is shown as a migration is: what failed or was refused and why, and the command that runs the
 * withdraw again.
 */
export interface WithdrawReviewJob extends JobBase {
  readonly kind: 'withdraw';
  /** The same withdraw, run again: it settles the failed cases, never sending anything twice. */
  readonly retryCommand: string;
  readonly retryNote: string;
}

/**
 * A track journal: its lines are the cases' states as its last run read them, shown with the
 * worklist first (the rows "to fix" are the cases that need a person, soonest due first); nothing
 * to edit: the page gives the command that reads them again.
 */
export interface TrackReviewJob extends JobBase {
  readonly kind: 'track';
  readonly retryCommand: string;
  readonly retryNote: string;
  /** The track summary as `report` prints it: recovery, by status, decided. */
  readonly summaryText: string;
}

/** A job whose rows are shown, not edited. */
export type ReadOnlyReviewJob = MigrateReviewJob | WithdrawReviewJob | TrackReviewJob;

export type ReviewJob = ImportReviewJob | ReadOnlyReviewJob;

export class ReviewJobError extends RefusalError {
  readonly code = 'REVIEW_JOB';
}

/** A row of a job that is not an import: shown, never written to a fix file. */
export const recordless = {} as ReviewRow['record'];

/** Search over a row's cells, as every read-only job offers it. */
export function matchingCells(cellsOf: (entry: RowEntry) => Readonly<Record<string, string>>) {
  return (text: string) => (entry: RowEntry) =>
    Object.values(cellsOf(entry)).some((cell) => cell.toLowerCase().includes(text));
}

/** What a read-only job's review shows of its lines: every row, the ones to look at, the figures, search. */
export function readOnlyLines(
  entries: RowEntry[],
  cells: ReadonlyMap<number, Record<string, string>>,
  summariser: Summariser,
) {
  const cellsOf = (entry: RowEntry) => cells.get(entry.line) ?? {};
  const rows: ReviewRow[] = entries
    .filter((entry) => entry.toFix)
    .map((entry) => ({ ...entry, cells: cellsOf(entry), record: recordless }));
  return {
    entries,
    rows,
    summary: summariser.summary(),
    mixedClaims: summariser.mixedClaimKeys(),
    cellsOf,
    matching: matchingCells(cellsOf),
  };
}
