import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import {
  pathAbsolute,
  pathEmpty,
  pathInvalid,
  pathLeaves,
  pathLinksOutside,
  notAFile,
  describeEvidenceDir,
  type EvidenceDirSetBy,
  type EvidenceFailure,
} from './errors.js';
import { describeFileKind, errorCode, fileSystemFailure } from './fs-failures.js';

/**
 * Where an evidence cell points, confined to `--evidence-dir`. The cell comes from an issuer's
 * export, so it is untrusted: the text is judged before any file is touched, then symbolic links
 * are resolved and the real path must still be inside.
 */

export type EvidencePathResult = { ok: true; path: string } | EvidenceFailure;

/** The evidence directory itself is unusable: every row would fail, so the run stops. */
export class EvidenceDirectoryError extends Error {
  constructor(
    readonly evidenceDir: string,
    got: string,
    options?: { cause?: unknown },
  ) {
    super(`--evidence-dir ${evidenceDir}: expected a directory, got ${got}`, options);
    this.name = 'EvidenceDirectoryError';
  }
}

/**
 * Resolves `cell` to the real, absolute path of a regular file inside `evidenceDir`, without
 * opening it (realpath and stat read directory entries and inodes, never the file: a named pipe
 * or device cannot block us here). Throws EvidenceDirectoryError when the directory itself is
 * missing or not a directory; every problem with the cell is a failure value.
 */
export async function resolveEvidencePath(
  evidenceDir: string,
  cell: string,
  setBy?: EvidenceDirSetBy,
  /** The directory's real path when it is known already (realEvidenceDirOnce); resolved now otherwise. */
  realDirOf: (evidenceDir: string) => Promise<string> = realEvidenceDir,
): Promise<EvidencePathResult> {
  const confined = await confineEvidencePath(evidenceDir, cell, setBy, realDirOf);
  if (!confined.ok) return confined;
  try {
    const stats = await stat(confined.path);
    if (!stats.isFile()) return notAFile(cell, describeFileKind(stats));
    return confined;
  } catch (error) {
    return fileSystemFailure(cell, error, describeEvidenceDir(resolve(evidenceDir), setBy));
  }
}

/**
 * As resolveEvidencePath, but what the real path names is not looked at: for a caller that opens
 * it next, as readEvidenceFile does (non-blocking and not following a link, then fstat refusing
 * anything but a regular file), which tells the same failures with the same words for one file
 * system call less.
 */
export async function confineEvidencePath(
  evidenceDir: string,
  cell: string,
  setBy?: EvidenceDirSetBy,
  realDirOf: (evidenceDir: string) => Promise<string> = realEvidenceDir,
): Promise<EvidencePathResult> {
  const where = describeEvidenceDir(resolve(evidenceDir), setBy);
  const parsed = parseEvidenceCell(cell, where);
  if (!parsed.ok) return parsed;
  const realDir = await realDirOf(evidenceDir);

  try {
    const realPath = await realpath(join(realDir, ...parsed.segments));
    // Checked before anything else: even what lies outside is none of the row's business.
    if (!isInside(realDir, realPath)) return pathLinksOutside(cell, where);
    return { ok: true, path: realPath };
  } catch (error) {
    return fileSystemFailure(cell, error, where);
  }
}

/**
 * The text rules, pure: the cell as path segments relative to the evidence directory, `..`
 * already applied, or why it cannot be one. `where` names the evidence directory in a refusal.
 */
export function parseEvidenceCell(cell: string, where?: string): { ok: true; segments: string[] } | EvidenceFailure {
  if (cell.trim() === '') return pathEmpty(cell);
  // The file system would cut the path at a NUL (or Node would throw): refuse it outright.
  if (cell.includes('\0')) return pathInvalid(cell, 'one with a NUL character');
  // Rooted in either convention, whatever the platform: POSIX `/x`, Windows `\x`, `\\server\x`,
  // `C:\x` and the drive-relative `C:x`. A cell from a Windows export means the same on Linux.
  if (/^[/\\]/.test(cell) || /^[A-Za-z]:/.test(cell)) return pathAbsolute(cell, where);

  // `\` is a separator too: exports written on Windows use it, and treating it as part of a
  // file name would let `..\..\etc\passwd` slip past the `..` rule below.
  const segments: string[] = [];
  for (const segment of cell.split(/[/\\]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') segments.push(segment);
    // A `..` that climbs above the evidence directory, even if a later segment would come back.
    else if (segments.pop() === undefined) return pathLeaves(cell, where);
  }
  return { ok: true, segments };
}

const realDirs = new WeakMap<object, Promise<string>>();

/**
 * The directory's real path, resolved once for `owner` (a job's evidence folder) rather than for
 * every file: two of a file's four lookups were the directory's own, a tenth of the import's
 * main thread while sending. Files stay confined to the directory as it was when first resolved;
 * a failure is not kept, so a directory that appears later is found.
 */
export async function realEvidenceDirOnce(owner: object, evidenceDir: string): Promise<string> {
  let real = realDirs.get(owner);
  if (real === undefined) {
    real = realEvidenceDir(evidenceDir);
    realDirs.set(owner, real);
    real.catch(() => realDirs.delete(owner));
  }
  return real;
}

async function realEvidenceDir(evidenceDir: string): Promise<string> {
  let realDir: string;
  let stats: Stats;
  try {
    realDir = await realpath(evidenceDir);
    stats = await stat(realDir);
  } catch (error) {
    const code = errorCode(error);
    throw new EvidenceDirectoryError(
      evidenceDir,
      code === 'ENOENT' ? 'nothing there' : `an error (${code ?? 'unknown'})`,
      { cause: error },
    );
  }
  if (!stats.isDirectory()) throw new EvidenceDirectoryError(evidenceDir, describeFileKind(stats));
  return realDir;
}

/** `dir` itself counts as inside (it is then refused as a directory, not as an escape). */
function isInside(dir: string, candidate: string): boolean {
  return candidate === dir || candidate.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
