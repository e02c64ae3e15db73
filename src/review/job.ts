import Database from 'better-sqlite3';
import { isSqlite } from '../files/file-kind.js';
import { isTrackJournalTables } from '../job-files/track/journal.js';
import { JournalBusyError } from '../journal/open.js';
import { openImportJob } from './import-job.js';
import { ReviewJobError, type ReviewJob } from './job-types.js';
import { openMigrateJob } from './migrate-job.js';
import { openTrackJob } from './track-job.js';
import { openWithdrawJob } from './withdraw-job.js';

/**
 * The job under review: one import's journal, its shards' journals (merged by line, as
 * merge-results merges them), one migrate-v1 journal, one withdraw journal, or one track journal
 * (its worklist first); each read from a private copy, so a run on it is not blocked. Only the rows
 * to fix keep their cells in memory.
 */
export async function openReviewJob(journals: readonly string[], mappingFile: string | undefined): Promise<ReviewJob> {
  const [first, ...others] = journals;
  if (first === undefined) throw new ReviewJobError('expected the journal of a job, got none');
  const kind = await journalKindOf(first);
  if (kind === 'migrate-v1' || kind === 'withdraw' || kind === 'track') {
    if (others.length > 0)
      throw new ReviewJobError(
        `${first}: expected one ${kind} journal (${kind === 'withdraw' ? 'a withdraw' : kind === 'track' ? 'a track' : 'a migration'} has no shards), got ${journals.length} journals`,
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
 * Which job a journal is, by its tables: a migrate-v1 journal has `cases`, a withdraw journal
 * `withdraw_lines`, a track journal `track_rows` and `track_cases`; a SQLite file that is none
 * of the kinds is refused here, naming what it holds. Anything else (not SQLite, or not there) is left to the import's checks, which say what it is.
 * The file is open only while its table names are read: a run holds its journal exclusively, and
 * one doing so is told, not guessed at.
 */
async function journalKindOf(file: string): Promise<'import' | 'migrate-v1' | 'withdraw' | 'track' | undefined> {
  if (!(await isSqlite(file).catch(() => false))) return undefined;
  let tables: Set<string>;
  try {
    const database = new Database(file, { readonly: true, fileMustExist: true, timeout: 1000 });
    try {
      tables = new Set(
        database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[],
      );
    } finally {
      database.close();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
      throw new JournalBusyError(`journal ${file}: expected no run using it, got one (review it when the run ends)`, {
        cause: error,
      });
    return undefined;
  }
  if (tables.has('meta') && tables.has('cases')) return 'migrate-v1';
  if (tables.has('meta') && tables.has('withdraw_lines')) return 'withdraw';
  if (isTrackJournalTables(tables)) return 'track';
  if (tables.has('meta') && tables.has('rows') && tables.has('claims')) return 'import';
  throw new ReviewJobError(
    `expected an import, migrate-v1, withdraw or track journal (tables meta, rows and claims; meta and cases; meta and withdraw_lines; or meta, track_rows and track_cases), got a SQLite database with ${tables.size === 0 ? 'no tables' : [...tables].join(', ')}`,
  );
}
