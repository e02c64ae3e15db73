import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { NotResultsError } from '../files/not-results-error.js';
import { copyForReading } from './results-copy.js';
import { JournalBusyError } from './open.js';
import { codeOf } from '../errors/coded-error.js';

/**
 * Reading a job's journal (an import's, migrate-v1's or withdraw's) without disturbing its run:
 * a private copy, its `meta` values, and the checks that it is a journal of the kind and format
 * expected. Shared by everything that reads journals it did not write: the report, merge-results,
 * withdraw's journal sources and the review; here, below all of them.
 */

/**
 * A private copy of the journal, read in place of the job's own. A connection kept open while
 * the report reads would hold a shared lock, and a run starting meanwhile would stop with
 * JOURNAL_BUSY; the copy is made in one short read transaction instead (`copyForReading`), and
 * fails with SQLITE_BUSY while a run holds the journal. The copy is a temporary file in a folder
 * of its own (0700), removed when the reading ends.
 */
export async function snapshotOf(file: string): Promise<{ database: Database.Database; folder: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'bulk-disputes-report-'));
  const copy = join(folder, 'journal.sqlite');
  try {
    copyForReading(file, copy);
    const database = new Database(copy, { fileMustExist: true });
    database.pragma('query_only = ON');
    return { database, folder };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    const code = codeOf(error);
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      throw new JournalBusyError(
        `journal ${file}: expected no run using it, got one (report on it when the run ends)`,
        { cause: error },
      );
    }
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
      throw new NotResultsError('expected a results CSV or a journal, got a damaged SQLite file', { cause: error });
    throw error;
  }
}

/** A journal whose staging did not finish holds only part of the input: its report would mislead. */
export function expectStaged(meta: { get(key: 'staged'): true | undefined }): void {
  if (meta.get('staged') !== true)
    throw new NotResultsError(
      'expected a journal whose staging finished, got one stopped while reading its input (run the job again: it stages from the start)',
    );
}

/** A journal of the format this version reads (`recorded`: its `format` meta, or its fingerprint's or settings' `format`). */
export function expectFormat(recorded: unknown, expected: string, what: string): void {
  if (recorded !== expected)
    throw new NotResultsError(
      `expected ${what} of format ${expected}, got ${recorded === undefined ? 'none recorded' : `format ${typeof recorded === 'string' ? recorded : JSON.stringify(recorded)}`}`,
    );
}
