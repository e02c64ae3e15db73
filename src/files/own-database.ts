import { closeSync, fstatSync, lstatSync, readSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { codeOf, RefusalError } from '../errors/coded-error.js';
import { expectOwnPath, NotOwnFileError, openOwnFile, ownExistingFile } from './own-file.js';

/**
 * A SQLite database the tool writes (a job's journal, the review store, the sandbox's database),
 * opened as own-file.ts opens a file: better-sqlite3 takes a path, not a descriptor, and follows a
 * link at it (SQLite resolves links to find the `-wal` beside the real file), so the path is made
 * ours first. Its `-wal`, `-shm` and `-journal` companions are refused when links and made 0600
 * when they exist; the database itself is created or opened here with O_NOFOLLOW and made 0600
 * (SQLite gives the companions it creates the database's mode). Once SQLite has it open, the file
 * SQLite resolved (`PRAGMA database_list`) must be that path and the same file (device and inode)
 * checked before: a link planted in between is refused before anything is written through it.
 */
export function openOwnDatabase(
  file: string,
  open: (file: string) => Database.Database,
  notADatabase: (reason: string) => Error,
): Database.Database {
  if (file === ':memory:' || file === '') return open(file);
  for (const companion of ['-wal', '-shm', '-journal']) ownExistingFile(`${file}${companion}`);
  const fd = openOwnFile(file, 'write', {
    before: (opened) => {
      expectDatabaseHeader(opened, notADatabase);
    },
  });
  try {
    const checked = fstatSync(fd);
    const database = open(file);
    try {
      expectOpened(database, file, checked);
    } catch (error) {
      database.close();
      throw error;
    }
    return database;
  } finally {
    closeSync(fd);
  }
}

/** Every SQLite database file starts with these 16 bytes (sqlite.org/fileformat.html); a new one is empty. */
const header = Buffer.from('SQLite format 3\0', 'latin1');

/** Refuses a file that is neither empty nor a SQLite database, before anything changes it (its mode neither). */
function expectDatabaseHeader(fd: number, notADatabase: (reason: string) => Error): void {
  const start = Buffer.alloc(header.length);
  const read = readSync(fd, start, 0, header.length, 0);
  if (read === 0 || start.subarray(0, read).equals(header)) return;
  throw notADatabase('its first bytes are not those of a SQLite database');
}

/** The file SQLite opened is the one checked: the same path (no link followed) and the same inode. */
function expectOpened(database: Database.Database, file: string, checked: { dev: number; ino: number }): void {
  const main = (database.pragma('database_list') as { name: string; file: string }[]).find(
    (entry) => entry.name === 'main',
  );
  const absolute = resolve(file);
  const expected = join(realpathSync(dirname(absolute)), basename(absolute));
  const now = lstatSync(file, { throwIfNoEntry: false });
  if (main?.file === expected && now?.dev === checked.dev && now.ino === checked.ino) return;
  // Swapped for something else while SQLite opened it: name what stands there now.
  expectOwnPath(file);
  throw new NotOwnFileError(file, { kind: `another file than the one checked (${main?.file ?? 'none'})` });
}

/**
 * A file at a database's path that is not a SQLite database (or is damaged): running again cannot
 * help, so the CLI maps it to exit 2, never 3. `code`: the job's (JOURNAL_NOT_A_JOURNAL for a
 * journal or review store, SANDBOX_NOT_A_DATABASE for the sandbox's database).
 */
export class NotADatabaseError extends RefusalError {
  constructor(
    readonly code: 'JOURNAL_NOT_A_JOURNAL' | 'SANDBOX_NOT_A_DATABASE',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'NotADatabaseError';
  }
}

/** Whether SQLite refused the file as none of its databases (its header) or a damaged one. */
export function isNotADatabase(error: unknown): boolean {
  const code = codeOf(error) ?? '';
  return code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT');
}
