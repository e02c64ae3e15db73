import Database from 'better-sqlite3';
import { JournalBusyError } from '../import/journal/schema.js';
import { isSqlite } from '../report/run-report.js';
import type { WrittenDialect } from '../csv/layout.js';
import type { ResultRecord } from '../import/journal/journal.js';
import type { Mapping } from '../mapping/schema.js';
import type { Summary } from '../report/summarise.js';

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
  /** The report's figures (report/summarise.ts): the overview shows what `report` shows. */
  readonly summary: Summary;
  /** Claims whose rows ended differently. */
  readonly mixedClaims: ReadonlySet<string>;
  /** Any row's cells (a row not to fix is read from its journal when shown). */
  cellsOf(entry: RowEntry): Readonly<Record<string, string>>;
  /** Which rows hold `text` in a cell (lower case). */
  matching(text: string): (entry: RowEntry) => boolean;
  close(): Promise<void>;
}

/** An import's journal or its shards: rows are source cells, fixed and fed back. */
export interface ImportReviewJob extends JobBase {
  readonly kind: 'import';
  readonly mapping: Mapping;
  readonly mappingFile: string;
  /** The job's `--id-prefix` (issue 28), carried into its fix file's import. */
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
 * A withdraw journal (issue 28): its lines are what the service said of each case, not cells of a
 * file, so it is shown as a migration is: what failed or was refused and why, and the command that
 * runs the withdraw again.
 */
export interface WithdrawReviewJob extends JobBase {
  readonly kind: 'withdraw';
  /** The same withdraw, run again: it settles the failed cases, never sending anything twice. */
  readonly retryCommand: string;
  readonly retryNote: string;
}

/** A job whose rows are shown, not edited. */
export type ReadOnlyReviewJob = MigrateReviewJob | WithdrawReviewJob;

export type ReviewJob = ImportReviewJob | ReadOnlyReviewJob;

export class ReviewJobError extends Error {
  readonly code = 'REVIEW_JOB';
}

/**
 * The job under review (issue 23): one import's journal, its shards' journals (merged by line, as
 * merge-results merges them), one migrate-v1 journal, or one withdraw journal (issue 28); each
 * read from a private copy, so a run on it is not blocked. Only the rows to fix keep their cells
 * in memory.
 */
export async function openReviewJob(journals: readonly string[], mappingFile: string | undefined): Promise<ReviewJob> {
  const [first, ...others] = journals;
  if (first === undefined) throw new ReviewJobError('expected the journal of a job, got none');
  const kind = await journalKindOf(first);
  if (kind === 'migrate-v1' || kind === 'withdraw') {
    if (others.length > 0) throw new ReviewJobError(`${first}: expected one ${kind} journal (${kind === 'withdraw' ? 'a withdraw' : 'a migration'} has no shards), got ${journals.length} journals`);
    if (kind === 'withdraw') {
      const { openWithdrawJob } = await import('./withdraw-job.js');
      return openWithdrawJob(first);
    }
    const { openMigrateJob } = await import('./migrate-job.js');
    return openMigrateJob(first);
  }
  const { openImportJob } = await import('./import-job.js');
  return openImportJob(journals, mappingFile);
}

/**
 * Which job a journal is, by its tables: a migrate-v1 journal has `cases`, a withdraw journal
 * `withdraw_lines`; a SQLite file that is none of the kinds is refused here, naming what it holds.
 * Anything else (not SQLite, or not there) is left to the import's checks, which say what it is.
 * The file is open only while its table names are read: a run holds its journal exclusively, and
 * one doing so is told, not guessed at.
 */
async function journalKindOf(file: string): Promise<'import' | 'migrate-v1' | 'withdraw' | undefined> {
  if (!(await isSqlite(file).catch(() => false))) return undefined;
  let tables: Set<string>;
  try {
    const database = new Database(file, { readonly: true, fileMustExist: true, timeout: 1000 });
    try {
      tables = new Set((database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]));
    } finally {
      database.close();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') throw new JournalBusyError(`journal ${file}: expected no run using it, got one (review it when the run ends)`, { cause: error });
    return undefined;
  }
  if (tables.has('meta') && tables.has('cases')) return 'migrate-v1';
  if (tables.has('meta') && tables.has('withdraw_lines')) return 'withdraw';
  if (tables.has('meta') && tables.has('rows') && tables.has('claims')) return 'import';
  throw new ReviewJobError(`expected an import, migrate-v1 or withdraw journal (tables meta, rows and claims; meta and cases; or meta and withdraw_lines), got a SQLite database with ${tables.size === 0 ? 'no tables' : [...tables].join(', ')}`);
}
