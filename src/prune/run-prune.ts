import type Database from 'better-sqlite3';
import { lstatSync } from 'node:fs';
import { expectOwnPath } from '../files/own-file.js';
import { codeOf } from '../errors/coded-error.js';
import { JournalBusyError, openLockedDatabase } from '../journal/open.js';
import type { JournalKind } from '../journal/kind.js';
import { decide, day, type Decision } from './assess.js';
import { CaseBook } from './case-book.js';
import { deleteOwnFile } from './delete-file.js';
import { PruneUnreadableError } from './errors.js';
import { findFiles, type FoundFile } from './find-files.js';
import { readJobFacts } from './job-facts.js';
import { belongingsOf, findJobs, type Belonging, type FoundJob, type Unrecognised } from './jobs.js';
import { personalDataOfFile, personalDataOfJournal } from './personal-data.js';
import { policySeconds } from './periods.js';
import { resolvePrunePlan, type PrunePlan, type PruneRequest } from './plan.js';
import { appendRecord, type JobRecordLine } from './record.js';
import { reclaimIfNeeded, thinJournal } from './thin-journal.js';
import { readDatabase } from './read-only.js';

export type { PruneRequest } from './plan.js';

/** What prune did, or in a dry run would do, with one job. */
export interface PrunedJob {
  readonly journal: string;
  readonly kind: JournalKind;
  /** `leave` also for a job a run held locked when prune came to it. */
  readonly action: Decision['action'];
  readonly why: string;
  /** The journal itself and the files of it that go (or, for `keep` and `leave`, that stay). */
  readonly files: readonly PrunedFile[];
  readonly personalData: readonly string[];
  /** Bytes deleted, or in a dry run that would be. */
  readonly bytes: number;
}

export interface PrunedFile {
  readonly path: string;
  readonly role: string;
  readonly bytes: number;
  readonly personalData: readonly string[];
}

export interface PruneReport {
  readonly dryRun: boolean;
  readonly at: Date;
  readonly policy: { readonly keepPersonalData: string; readonly keepRecords: string };
  /** The personal-data period in seconds, near enough (months of 30.44 days): what the alert rule compares with. */
  readonly policySeconds: { readonly keepPersonalData: number };
  readonly jobs: readonly PrunedJob[];
  /** Links met under the paths: never followed, never removed. */
  readonly links: readonly string[];
  /** SQLite files a process held locked: a job running, or a sandbox. */
  readonly busy: readonly string[];
  /** Files at a job's names that hold something else: left as they are. */
  readonly unrecognised: readonly Unrecognised[];
  readonly recordFile: string | undefined;
  readonly bytesDeleted: number;
}

interface Assessed {
  readonly job: FoundJob;
  readonly decision: Decision;
  readonly belongings: readonly Belonging[];
}

/**
 * `bulk-disputes prune` (docs/data.md, "Retention"): every job under the paths assessed first,
 * reading only, so that a file it cannot read stops it before anything changed; then each job
 * due thinned or removed in turn, a line of the prune record after each.
 */
export async function runPrune(request: PruneRequest): Promise<PruneReport> {
  return pruneByPlan(resolvePrunePlan(request));
}

/** A plan resolved already (`resolvePrunePlan`) pruned: what the CLI does, having read the policy first. */
export async function pruneByPlan(plan: PrunePlan): Promise<PruneReport> {
  const found = await findFiles(plan.paths);
  const files = found.files.filter((file) => file.path !== plan.recordFile);
  const byPath = new Map(files.map((file) => [file.path, file]));
  const { jobs, busy } = await findJobs(files);
  const unrecognised: Unrecognised[] = [];
  // A file a job recorded is its own wherever it was written (track's status file goes to the
  // folder it ran in): looked up outside the paths too.
  const assessed = await assessAll(jobs, plan, (path) => byPath.get(path) ?? regularFileAt(path), unrecognised);
  // A link planted at the record's name stops the run before it changes anything, not after a job.
  if (!plan.dryRun) expectOwnPath(plan.recordFile);
  const pruned: PrunedJob[] = [];
  let bytesDeleted = 0;
  for (const job of assessed) {
    const done = plan.dryRun ? listed(job) : await act(job, plan);
    pruned.push(done);
    if (!plan.dryRun) bytesDeleted += done.bytes;
  }
  const report: PruneReport = {
    dryRun: plan.dryRun,
    at: plan.now,
    policy: { keepPersonalData: plan.policy.keepPersonalData.text, keepRecords: plan.policy.keepRecords.text },
    policySeconds: { keepPersonalData: policySeconds(plan.policy.keepPersonalData) },
    jobs: pruned,
    links: found.links,
    busy,
    unrecognised,
    recordFile: plan.dryRun ? undefined : plan.recordFile,
    bytesDeleted,
  };
  if (!plan.dryRun)
    appendRecord(plan.recordFile, {
      at: plan.now.toISOString(),
      event: 'run',
      paths: plan.paths,
      policy: policyOf(plan),
      jobs: countsOf(pruned),
      bytes_deleted: bytesDeleted,
    });
  return report;
}

async function assessAll(
  jobs: readonly FoundJob[],
  plan: PrunePlan,
  lookUp: (path: string) => FoundFile | undefined,
  unrecognised: Unrecognised[],
): Promise<Assessed[]> {
  const book = await CaseBook.open();
  try {
    // What the track and withdraw journals saw of every case, before any job is judged by it.
    for (const job of jobs) {
      if (job.kind !== 'track' && job.kind !== 'withdraw') continue;
      // A journal a run holds is read by none: its job is left alone below, its cases unseen.
      book.addJournal(job.journal.path, job.kind, job.journal.modified);
    }
    const assessed: Assessed[] = [];
    for (const job of jobs) {
      const read = withReadable(job, (database) => {
        const facts = readJobFacts(job.kind, database, job.journal.path);
        return { facts, cases: book.tally(facts.caseIds()) };
      });
      if (read === undefined) {
        assessed.push({ job, decision: { action: 'leave', why: 'in use: a run holds its journal' }, belongings: [] });
        continue;
      }
      const found = await belongingsOf(job, read.facts.written, lookUp);
      unrecognised.push(...found.unrecognised);
      const decision = decide(read.facts, read.cases, plan.policy, {
        now: plan.now,
        journalWrittenAt: job.journal.modified,
        leftovers:
          found.belongings.length > 0 ||
          job.siblings.some((sibling) => sibling.path.endsWith('-wal') && sibling.bytes > 0),
      });
      assessed.push({ job, decision, belongings: found.belongings });
    }
    return assessed;
  } finally {
    await book.close();
  }
}

/** `read` on the journal opened read-only; undefined when a run holds it locked. */
function withReadable<T>(job: FoundJob, read: (database: Database.Database) => T): T | undefined {
  try {
    return readDatabase(job.journal.path, read);
  } catch (error) {
    // A journal whose meta no version wrote (JOURNAL_INVALID) says so in its own words.
    if (codeOf(error)?.startsWith('SQLITE') !== true) throw error;
    throw new PruneUnreadableError(
      `${job.journal.path}: expected a journal prune can read, got ${codeOf(error) ?? String(error)}: prune stopped before changing anything`,
      { cause: error },
    );
  }
}

/** What goes with the job for its action: its written files when thinned, everything when removed. */
function filesOf({ job, decision, belongings }: Assessed): PrunedFile[] {
  const written = belongings.map((belonging) => ({
    path: belonging.path,
    role: belonging.role,
    bytes: belonging.bytes + belonging.siblings.reduce((sum, sibling) => sum + sibling.bytes, 0),
    personalData: personalDataOfFile(belonging.role, job.kind),
  }));
  const journal = {
    path: job.journal.path,
    role: 'journal',
    bytes: job.journal.bytes + job.siblings.reduce((sum, sibling) => sum + sibling.bytes, 0),
    personalData: personalDataOfJournal(job.kind),
  };
  return decision.action === 'remove' ? [...written, journal] : written;
}

function listed(assessed: Assessed): PrunedJob {
  const { job, decision } = assessed;
  const goes = decision.action === 'thin' || decision.action === 'remove' || decision.action === 'finish';
  const files = goes ? filesOf(assessed) : [];
  return {
    journal: job.journal.path,
    kind: job.kind,
    action: decision.action,
    why: decision.why,
    files,
    personalData: decision.action === 'thin' ? personalDataOfJournal(job.kind) : [],
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
  };
}

async function act(assessed: Assessed, plan: PrunePlan): Promise<PrunedJob> {
  const { job, decision } = assessed;
  const planned = listed(assessed);
  if (decision.action === 'keep' || decision.action === 'leave') return planned;
  const thinned = {
    at: plan.now.toISOString(),
    keep_personal_data: plan.policy.keepPersonalData.text,
    keep_records: plan.policy.keepRecords.text,
  };
  try {
    const asRead = {
      bytes: job.journal.bytes,
      modified: job.journal.modified,
      logBytes: job.siblings.find((sibling) => sibling.path.endsWith('-wal'))?.bytes ?? 0,
    };
    if (decision.action === 'thin' && thinJournal(job.journal.path, job.kind, thinned, asRead) === 'changed')
      return {
        ...planned,
        action: 'leave',
        why: 'written to since prune read it: left for the next prune',
        files: [],
        bytes: 0,
      };
    else if (decision.action === 'finish') reclaimIfNeeded(job.journal.path);
    else openLockedDatabase(job.journal.path).close();
  } catch (error) {
    if (error instanceof JournalBusyError)
      return { ...planned, action: 'leave', why: 'in use: a run holds its journal', files: [], bytes: 0 };
    throw error;
  }
  let bytes = 0;
  for (const belonging of assessed.belongings) {
    // A database's log and shared memory before the database, never the database alone.
    for (const sibling of belonging.siblings) bytes += await deleteOwnFile(sibling.path);
    bytes += await deleteOwnFile(belonging.path);
  }
  if (decision.action === 'remove') {
    for (const sibling of job.siblings) bytes += await deleteOwnFile(sibling.path);
    for (const suffix of ['-wal', '-shm', '-journal']) bytes += await deleteOwnFile(`${job.journal.path}${suffix}`);
    bytes += await deleteOwnFile(job.journal.path);
  }
  const line: JobRecordLine = {
    at: plan.now.toISOString(),
    event: decision.action === 'thin' ? 'thinned' : decision.action === 'remove' ? 'removed' : 'finished',
    job: job.journal.path,
    kind: job.kind,
    policy: policyOf(plan),
    since: { what: decision.dates.sinceWhat, at: day(decision.dates.since) },
    files: planned.files.map((file) => ({ path: file.path, role: file.role, bytes: file.bytes, action: 'deleted' })),
    removed: [...new Set([...planned.personalData, ...planned.files.flatMap((file) => file.personalData)])],
  };
  appendRecord(plan.recordFile, line);
  plan.logger.info(
    { job: job.journal.path, action: line.event, files: line.files.length, bytes },
    `prune: ${line.event} ${job.journal.path}`,
  );
  return { ...planned, bytes };
}

function policyOf(plan: PrunePlan): JobRecordLine['policy'] {
  return { keep_personal_data: plan.policy.keepPersonalData.text, keep_records: plan.policy.keepRecords.text };
}

function countsOf(jobs: readonly PrunedJob[]): Record<string, number> {
  const counts: Record<string, number> = { thin: 0, remove: 0, finish: 0, keep: 0, leave: 0 };
  for (const job of jobs) counts[job.action] = (counts[job.action] ?? 0) + 1;
  return counts;
}

function regularFileAt(path: string): FoundFile | undefined {
  const found = lstatSync(path, { throwIfNoEntry: false });
  return found?.isFile() === true ? { path, bytes: found.size, modified: found.mtime } : undefined;
}
