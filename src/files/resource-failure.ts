import { dirname, isAbsolute, relative } from 'node:path';
import Database from 'better-sqlite3';
import { CodedError } from '../errors/coded-error.js';

/**
 * The machine, not the job, refused a file: the disk is full, the user may not write there, the
 * file system is read-only, a file or its folder vanished. The message names the file, says that
 * nothing was lost (a journal records each step before it is taken, a file is written through a
 * temporary file and a rename) and what to do, instead of `ENOSPC: no space left on device, write`.
 * The code stays the system's (ENOSPC, SQLITE_FULL, ...), so a log search still finds it; the CLI
 * maps it to exit 3 (run the same command again).
 */
export class ResourceFailure extends CodedError {
  readonly code: string;
  constructor(
    readonly kind: ResourceKind,
    code: string,
    /** The file it concerns, as the command was given it; undefined when nothing named it. */
    readonly file: string | undefined,
    options: { action: string; resumes: boolean; cause: unknown },
  ) {
    super(sentenceFor(kind, file, options.action, options.resumes), { cause: options.cause });
    this.name = 'ResourceFailure';
    this.code = code;
  }
}

export type ResourceKind =
  'disk-full' | 'quota' | 'permission' | 'read-only' | 'vanished' | 'not-a-folder' | 'disk-error';

/** System and SQLite codes by what they mean for a person; SQLite's extended codes start like their primary one. */
const kinds: readonly [RegExp, ResourceKind][] = [
  [/^(ENOSPC|SQLITE_FULL)$/, 'disk-full'],
  [/^EDQUOT$/, 'quota'],
  [/^(EACCES|EPERM|SQLITE_PERM|SQLITE_CANTOPEN)/, 'permission'],
  [/^(EROFS|SQLITE_READONLY)/, 'read-only'],
  [/^ENOENT$/, 'vanished'],
  // A file where a folder of the path should be (`--results notes.txt/x.csv`): mkdir says EEXIST, open ENOTDIR.
  [/^(ENOTDIR|EEXIST)$/, 'not-a-folder'],
  [/^(EIO|SQLITE_IOERR)/, 'disk-error'],
];

/**
 * `error` as a ResourceFailure when it is one (else undefined). `file`, given by the code that
 * writes it, names the file the person knows (the results, not their temporary file) and the one
 * an error does not name (a write on an open file, SQLite's errors); without it, the error's own
 * path. `resumes`: the command continues from a journal when run again.
 */
export function resourceFailure(
  error: unknown,
  file?: string,
  options: { resumes?: boolean } = {},
): ResourceFailure | undefined {
  if (error instanceof ResourceFailure) return error;
  const { code, path, syscall } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    path?: unknown;
    syscall?: unknown;
  };
  if (typeof code !== 'string') return undefined;
  const kind = kinds.find(([pattern]) => pattern.test(code))?.[1];
  if (kind === undefined) return undefined;
  return new ResourceFailure(kind, code, file ?? (typeof path === 'string' ? path : undefined), {
    action: actionOf(syscall),
    resumes: options.resumes ?? false,
    cause: error,
  });
}

/**
 * For a job that keeps a SQLite journal (import, migrate-v1, withdraw), which continues where it
 * stopped when run again: SQLite's errors are the journal's; the file system's name `file` when
 * given (the results being written, not their temporary file), else their own path.
 */
export function jobResourceFailure(error: unknown, files: { journal: string; file?: string | undefined }): unknown {
  const file = error instanceof Database.SqliteError ? files.journal : files.file;
  return resourceFailure(error, file, { resumes: true }) ?? error;
}

/** Rethrows `error` naming `file` when it is a resource failure, else as it is: `.catch(namingFile(file))`. */
export function namingFile(file: string, options: { resumes?: boolean } = {}): (error: unknown) => never {
  return (error) => {
    throw resourceFailure(error, file, options) ?? error;
  };
}

function actionOf(syscall: unknown): string {
  if (syscall === 'open' || syscall === 'scandir' || syscall === 'stat' || syscall === 'lstat') return 'opening';
  if (syscall === 'read') return 'reading';
  if (syscall === 'mkdir') return 'creating a folder for';
  if (syscall === 'rename' || syscall === 'copyfile') return 'moving into place';
  if (syscall === 'unlink' || syscall === 'rmdir') return 'removing';
  return 'writing';
}

function sentenceFor(kind: ResourceKind, file: string | undefined, action: string, resumes: boolean): string {
  const shown = file === undefined ? 'a file (its name was not recorded)' : shortPath(file);
  const folder = file === undefined ? 'its folder' : shortPath(dirname(file));
  const again = `run the same command again${resumes ? ' (it continues where it stopped)' : ''}`;
  switch (kind) {
    case 'disk-full':
      return `disk full ${action} ${shown}: nothing was lost; free some space and ${again}`;
    case 'quota':
      return `disk quota exceeded ${action} ${shown}: nothing was lost; free some space (or ask for a larger quota) and ${again}`;
    case 'permission':
      return (
        `permission denied ${action} ${shown}: nothing was lost; ` +
        `${action === 'reading' ? 'let this user read it' : `let this user write to ${folder} (or choose another path)`} and ${again}`
      );
    case 'read-only':
      return `read-only file system ${action} ${shown}: nothing was lost; choose a path on a writable disk (or remount it writable) and ${again}`;
    case 'vanished':
      return (
        `${shown} vanished while the command ran (it or its folder was moved or deleted): nothing was lost; ` +
        `put it or its folder back (or check the path) and ${again}`
      );
    case 'not-a-folder':
      return `a file stands in the way of ${shown} (a folder on its path is a file): nothing was lost; choose another path (or move that file) and ${again}`;
    case 'disk-error':
      return `the disk failed ${action} ${shown}: nothing was lost; check the disk (its log, its free space) and ${again}`;
  }
}

/** Relative to the working folder when inside it (`out/disputes.journal.sqlite`), else as it is. */
function shortPath(file: string): string {
  if (!isAbsolute(file)) return file;
  const inside = relative(process.cwd(), file);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : file;
}
