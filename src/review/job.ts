import Database from 'better-sqlite3';
import { isSqlite } from '../files/file-kind.js';
import { JournalBusyError } from '../journal/open.js';
import { openImportJob } from './import-job.js';
import { ReviewJobError, type ReviewJob } from './job-types.js';
import { openMigrateJob } from './migrate-job.js';
import { openTrackJob } from './track-job.js';
import { openWithdrawJob } from './withdraw-job.js';
import { journalKindOf, tablesOf, type JournalKind } from '../journal/kind.js';
import { codeOf } from '../errors/coded-error.js';

/**
 * The job under review: one import's journal, its shards' journals (merged by line, as
 * merge-results merges them), one migrate-v1 journal, one withdraw journal, or one track journal
 * (its worklist first); each read from a private copy, so a run on it is not blocked. Only the rows
 * to fix keep their cells in memory.
 */
export async function openReviewJob(journals: readonly string[], mappingFile: string | undefined): Promise<ReviewJob> {
  const [first, ...others] = journals;
  if (first === undefined) throw new ReviewJobError('expected the journal of a job, got none');
  const kind = await jobOfJournal(first);
  if (kind === 'migrate-v1' || kind === 'withdraw' || kind === 'track') {
    if (others.length > 0)
      throw new ReviewJobError(
        `${first}: expected one ${kind} journal ` +
          `(${kind === 'withdraw' ? 'a withdraw' : kind === 'track' ? 'a track' : 'a migration'} has no ` +
          `shards), got ${journals.length} journals`,
      );
    return kind === 'withdraw'
      ? openWithdrawJob(first)
      : kind === 'track'
        ? openTrackJob(first)
        : openMigrateJob(first);
  }
  return openImportJob(journals, mappingFile);
}

/**
 * Which job a journal is, by its tables (src/journal/kind.ts); a SQLite file that is none
 * of the kinds is refused here, naming what it holds. Anything else (not SQLite, or not there) is left to the import's checks, which say what it is.
 * The file is open only while its table names are read: a run holds its journal exclusively, and
 * one doing so is told, not guessed at.
 */
async function jobOfJournal(file: string): Promise<JournalKind | undefined> {
  if (!(await isSqlite(file).catch(() => false))) return undefined;
  let tables: Set<string>;
  try {
    const database = new Database(file, { readonly: true, fileMustExist: true, timeout: 1000 });
    try {
      tables = tablesOf(database);
    } finally {
      database.close();
    }
  } catch (error) {
    const code = codeOf(error);
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
      throw new JournalBusyError(`journal ${file}: expected no run using it, got one (review it when the run ends)`, {
        cause: error,
      });
    return undefined;
  }
  const kind = journalKindOf(tables);
  if (kind !== undefined) return kind;
  throw new ReviewJobError(
    `expected an import, migrate-v1, withdraw or track journal (tables meta, rows and claims; meta and ` +
      `cases; meta and withdraw_lines; or meta, track_rows and track_cases), got a SQLite database with ` +
      (tables.size === 0 ? 'no tables' : [...tables].join(', ')),
  );
}
