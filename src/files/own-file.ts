import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, readlinkSync, type Stats } from 'node:fs';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { codeOf, RefusalError } from '../errors/coded-error.js';

/**
 * How every file the tool writes is opened (docs/data.md, "Every file, by job"): the last component
 * of its path is ours, so a symbolic link planted there is never followed, and what is written is
 * readable by the owner only whatever stood there before. The folders on the way are the user's
 * choice (an `out/` linked to another disk is fine): only the file's own name is checked.
 */

/**
 * Something else than a file of ours stands at a path the tool writes: a symbolic link (which
 * would have it write into the file the link points to) or a folder, a pipe, a device. Nothing was
 * written through it; the CLI maps it to exit 2.
 */
export class NotOwnFileError extends RefusalError {
  readonly code: 'OUTPUT_IS_A_LINK' | 'OUTPUT_NOT_A_FILE';
  constructor(
    readonly file: string,
    found: { link: string } | { kind: string },
  ) {
    super(
      'link' in found
        ? `expected a file of our own at ${file}, got a symbolic link to ${found.link}: nothing was written ` +
            'through it; remove the link or choose another path (a folder on the path may be a link, the file itself may not)'
        : `expected a file of our own at ${file}, got ${found.kind}: nothing was written to it; move it away or choose another path`,
    );
    this.name = 'NotOwnFileError';
    this.code = 'link' in found ? 'OUTPUT_IS_A_LINK' : 'OUTPUT_NOT_A_FILE';
  }
}

/** Owner-only: journals, results and payloads hold cardholder details. */
export const ownMode = 0o600;

/** What stands at `file` (not following a link), refused unless it is a regular file; undefined when nothing does. */
export function expectOwnPath(file: string): Stats | undefined {
  let found: Stats;
  try {
    found = lstatSync(file);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
  if (found.isSymbolicLink()) throw new NotOwnFileError(file, { link: linkTarget(file) });
  if (!found.isFile()) throw new NotOwnFileError(file, { kind: kindOf(found) });
  return found;
}

/**
 * A file written in place (a database SQLite then opens, the payloads read on resume), opened
 * without following a link (O_NOFOLLOW) and without waiting on a pipe (O_NONBLOCK); `write`: created
 * if missing, never truncated, and made `mode` if it had another (a journal resumed ends 0600 even
 * if it was 0644), after `before` accepted it. Returns the descriptor; the caller closes it.
 */
export function openOwnFile(
  file: string,
  access: 'read' | 'write',
  options: { mode?: number; before?: (fd: number) => void } = {},
): number {
  const mode = options.mode ?? ownMode;
  const flags =
    (access === 'write' ? constants.O_RDWR | constants.O_CREAT : constants.O_RDONLY) |
    constants.O_NOFOLLOW |
    constants.O_NONBLOCK;
  let fd: number;
  try {
    fd = openSync(file, flags, mode);
  } catch (error) {
    // ELOOP: the last component is a link (O_NOFOLLOW); EISDIR: a folder stands there.
    if (codeOf(error) === 'ELOOP' || codeOf(error) === 'EISDIR') expectOwnPath(file);
    throw error;
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) throw new NotOwnFileError(file, { kind: kindOf(opened) });
    // What the caller checks first (a database's header): a file refused keeps its mode too.
    options.before?.(fd);
    if (access === 'write' && (opened.mode & 0o777) !== mode) fchmodSync(fd, mode);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** A companion file that already exists (SQLite's `-wal`, `-shm`): refused if a link, made `mode` if it had another. */
export function ownExistingFile(file: string, mode = ownMode): void {
  const found = expectOwnPath(file);
  if (found === undefined || (found.mode & 0o777) === mode) return;
  let fd: number;
  try {
    fd = openOwnFile(file, 'read');
  } catch (error) {
    // Gone since it was looked at (SQLite removes its -wal when the last connection closes): nothing to change.
    if (codeOf(error) === 'ENOENT') return;
    throw error;
  }
  try {
    fchmodSync(fd, mode);
  } finally {
    closeSync(fd);
  }
}

/**
 * What a file written through a rename may replace: nothing, a file, or a link (the rename replaces
 * the link itself). A folder, a pipe or a device at the name is refused before anything is written:
 * the rename would fail only once the work is done, and running again would meet it again.
 */
export function expectReplaceable(file: string): void {
  let found: Stats;
  try {
    found = lstatSync(file);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return;
    throw error;
  }
  if (!found.isFile() && !found.isSymbolicLink()) throw new NotOwnFileError(file, { kind: kindOf(found) });
}

/**
 * A name beside `file` no other run picks, even one with the same pid in another container; `file`
 * checked first (`expectReplaceable`), so every file written through a rename is.
 */
export function temporaryBeside(file: string): string {
  expectReplaceable(file);
  return `${file}.${randomBytes(6).toString('hex')}.tmp`;
}

/**
 * A new temporary file's stream, opened exclusively (`wx`: O_CREAT|O_EXCL fails on anything that
 * stands at the name, a link too, so nothing planted at it is followed), created `mode`.
 */
export function createTemporaryStream(temporary: string, mode = ownMode): WriteStream {
  return createWriteStream(temporary, { flags: 'wx', mode });
}

/** The open flags of a new temporary file for `fs.writeFile` and `fs.open`: see `createTemporaryStream`. */
export const temporaryFlags = 'wx';

/**
 * Writes `file` through a temporary file beside it and a rename: a reader never sees half of it,
 * and a link standing at `file` is replaced by the new file, never followed (rename does not). The
 * temporary file is removed if writing fails.
 */
export async function replaceFile(file: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = temporaryBeside(file);
  try {
    await write(temporary);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

function linkTarget(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return '(a target that could not be read)';
  }
}

function kindOf(found: Stats): string {
  if (found.isDirectory()) return 'a folder';
  if (found.isFIFO()) return 'a named pipe';
  if (found.isSocket()) return 'a socket';
  if (found.isCharacterDevice() || found.isBlockDevice()) return 'a device';
  return 'something that is not a regular file';
}
