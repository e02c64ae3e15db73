import { basename, dirname, join } from 'node:path';
import type { JournalKind } from '../journal/kind.js';
import type { WrittenFile } from '../journal/retention-meta.js';
import type { FoundFile } from './find-files.js';
import { isSqliteSibling, sqliteSiblings } from './journal-files.js';
import { databaseKindOf, holdsRole, type BelongingRole } from './recognise.js';

/** A file of a job besides its journal: what it is to the job, and whether it holds what that role says. */
export interface Belonging {
  readonly path: string;
  readonly role: BelongingRole;
  readonly bytes: number;
  /** A database's `-wal`, `-shm`, `-journal` beside it, which go with it. */
  readonly siblings: readonly FoundFile[];
}

/** One job: its journal, the files beside it SQLite keeps, and the files its runs wrote. */
export interface FoundJob {
  readonly journal: FoundFile;
  readonly kind: JournalKind;
  readonly siblings: readonly FoundFile[];
}

/** A file at a job's name that does not hold what the job wrote there: left as it is, and said. */
export interface Unrecognised {
  readonly path: string;
  readonly role: BelongingRole;
}

export interface FoundJobs {
  readonly jobs: FoundJob[];
  /** SQLite files another process holds locked: a job still running, or a sandbox. */
  readonly busy: string[];
}

/** The journals among the files, by their tables: every other file is a job's or nobody's. */
export async function findJobs(files: readonly FoundFile[]): Promise<FoundJobs> {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const jobs: FoundJob[] = [];
  const busy: string[] = [];
  for (const file of files) {
    if (isSqliteSibling(file.path)) continue;
    const kind = await databaseKindOf(file.path);
    if (kind === undefined) continue;
    if (kind.kind === 'busy') busy.push(file.path);
    if (kind.kind !== 'journal') continue;
    jobs.push({ journal: file, kind: kind.journal, siblings: siblingsOf(file.path, byPath) });
  }
  return { jobs, busy };
}

function siblingsOf(path: string, byPath: ReadonlyMap<string, FoundFile>): FoundFile[] {
  return sqliteSiblings.flatMap((suffix) => {
    const found = byPath.get(`${path}${suffix}`);
    return found === undefined ? [] : [found];
  });
}

/**
 * The files a job wrote, that exist and hold what they should: those its journal records
 * (`written_files`), and for a journal of an earlier version that recorded none, the names the
 * tool gives beside it (docs/data.md, "Every file, by job"): an import's results, its review store
 * and fix files. A file found at such a name that holds something else is returned apart.
 */
export async function belongingsOf(
  job: FoundJob,
  written: readonly WrittenFile[],
  lookUp: (path: string) => FoundFile | undefined,
): Promise<{ belongings: Belonging[]; unrecognised: Unrecognised[] }> {
  const candidates = new Map<string, BelongingRole>();
  for (const file of written) candidates.set(file.path, file.role);
  if (job.kind === 'import')
    for (const [path, role] of besideImportJournal(job.journal.path, lookUp))
      if (!candidates.has(path)) candidates.set(path, role);
  const belongings: Belonging[] = [];
  const unrecognised: Unrecognised[] = [];
  for (const [path, role] of candidates) {
    const found = lookUp(path);
    if (found === undefined || path === job.journal.path) continue;
    if (found.bytes > 0 && !(await holdsRole(path, role))) {
      unrecognised.push({ path, role });
      continue;
    }
    const siblings =
      role === 'review-store' ? sqliteSiblings.flatMap((suffix) => lookUp(`${path}${suffix}`) ?? []) : [];
    belongings.push({ path, role, bytes: found.bytes, siblings });
  }
  return { belongings, unrecognised };
}

/** The names the tool gives an import's files beside its journal. */
function besideImportJournal(
  journal: string,
  lookUp: (path: string) => FoundFile | undefined,
): Map<string, BelongingRole> {
  const base = join(dirname(journal), basename(journal).replace(/\.journal\.sqlite$|\.sqlite$/, ''));
  const named = new Map<string, BelongingRole>([
    [`${base}.results.csv`, 'results'],
    [`${base}.results.xlsx`, 'results'],
    [`${journal}.review.sqlite`, 'review-store'],
  ]);
  // The review's fix files, `<job>.fix-N.results.csv`: the first free N, so they stand in a row.
  for (let number = 1; ; number++) {
    const fixes = ['csv', 'xlsx']
      .map((extension) => `${base}.fix-${number}.results.${extension}`)
      .filter((path) => lookUp(path) !== undefined);
    if (fixes.length === 0) break;
    for (const fix of fixes) named.set(fix, 'fix-file');
  }
  return named;
}
