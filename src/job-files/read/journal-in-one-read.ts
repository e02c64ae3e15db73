import Database from 'better-sqlite3';
import { codeOf } from '../../errors/coded-error.js';
import { NotResultsError } from '../../files/not-results-error.js';
import { JournalBusyError } from '../../journal/open.js';
import { sourceError } from './source-error.js';

/** What the job reading a journal says when it cannot. */
export interface JournalSourceWords {
  /** After "journal FILE: " when a run holds it, e.g. "expected no run writing it, got one (track it when the run ends)". */
  busy: string;
  /** What the source should have been, e.g. "a journal". */
  expected: string;
  readonly?: boolean;
}

/**
 * Another job's journal read as a source, on the journal itself and in one read transaction: a
 * consistent picture even while the job that owns it runs on, no lock held once read. A journal
 * still being written (SQLITE_BUSY) is `JournalBusyError`, exit 3: run again when that job ends;
 * a damaged one, or one of no job we know, is the reading job's source error.
 */
export function readJournalInOneRead<T>(
  file: string,
  words: JournalSourceWords,
  read: (database: Database.Database) => T,
): T {
  let database: Database.Database | undefined;
  try {
    database = new Database(file, { fileMustExist: true, timeout: 1000, readonly: words.readonly ?? false });
    const opened = database;
    return opened.transaction(() => read(opened))();
  } catch (error) {
    throw journalError(file, error, words);
  } finally {
    database?.close();
  }
}

function journalError(file: string, error: unknown, words: JournalSourceWords): unknown {
  if (error instanceof NotResultsError) return sourceError(file, error.message, error);
  const code = codeOf(error);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
    return new JournalBusyError(`journal ${file}: ${words.busy}`, { cause: error });
  if (code?.startsWith('SQLITE_') === true)
    return sourceError(
      file,
      `expected ${words.expected}, got a damaged SQLite file (${code}: ${(error as Error).message})`,
      error,
    );
  return error;
}
