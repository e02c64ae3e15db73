import Database from 'better-sqlite3';
import { codeOf } from '../errors/coded-error.js';

/**
 * A database read without changing what it holds: opened read-only, without waiting for a lock.
 * Returns undefined when another process holds it locked. As every reading of a journal in WAL
 * mode, it may leave an empty `-wal` and a `-shm` beside it (docs/data.md, "Deleting a job's
 * files"); they hold nothing, and are never removed here, since a run starting meanwhile would
 * own them.
 */
export function readDatabase<T>(file: string, read: (database: Database.Database) => T): T | undefined {
  let database: Database.Database | undefined;
  try {
    database = new Database(file, { readonly: true, fileMustExist: true, timeout: 0 });
    return read(database);
  } catch (error) {
    if (codeOf(error) === 'SQLITE_BUSY' || codeOf(error) === 'SQLITE_LOCKED') return undefined;
    throw error;
  } finally {
    database?.close();
  }
}
