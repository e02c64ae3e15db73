import type Database from 'better-sqlite3';
import { importMetaOf } from '../job-files/import/meta.js';
import { migrateMetaOf } from '../job-files/migrate/meta.js';
import { trackMetaOf } from '../job-files/track/meta.js';
import { withdrawMetaOf } from '../job-files/withdraw/meta.js';
import type { JournalKind } from '../journal/kind.js';
import { tablesOf } from '../journal/kind.js';
import type { Thinned, WrittenFile } from '../journal/retention-meta.js';

/**
 * What prune needs to know of a job from its journal, read without changing it: whether its
 * work is over, the cases it has at the service, and what it recorded (docs/data.md, "Retention").
 */
export interface JobFacts {
  readonly thinned: Thinned | undefined;
  readonly written: readonly WrittenFile[];
  /** Why the job's work is not over (rows still to send, staging never finished), or undefined. */
  readonly unfinished: string | undefined;
  /** The ids of the cases the job has at the service, read as they are asked for. */
  readonly caseIds: () => Iterable<string>;
  /** When the job last did anything, ISO 8601, if its journal says (else its file's time is used). */
  readonly lastRunAt: string | undefined;
  /** Rows (import), targets (withdraw), cases (migrate-v1, track): what the listing counts. */
  readonly size: number;
}

export function readJobFacts(kind: JournalKind, database: Database.Database, file: string): JobFacts {
  switch (kind) {
    case 'import':
      return importFacts(database, file);
    case 'withdraw':
      return withdrawFacts(database, file);
    case 'migrate-v1':
      return migrateFacts(database, file);
    case 'track':
      return trackFacts(database, file);
  }
}

function importFacts(database: Database.Database, file: string): JobFacts {
  const meta = importMetaOf(database, file);
  const pending = database
    .prepare("SELECT count(*) FROM claims WHERE step NOT IN ('done', 'invalid', 'rejected', 'valid')")
    .pluck()
    .get() as number;
  const dryRun = meta.get('fingerprint')?.dryRun === true;
  // The claims the service holds, as withdraw finds them (src/withdraw/import-journal-source.ts):
  // created, or a create that left and was never settled.
  const everSent = tablesOf(database).has('sent_claims') ? ' OR c.claim_id IN (SELECT claim_id FROM sent_claims)' : '';
  return {
    thinned: meta.get('thinned'),
    written: meta.get('written_files') ?? [],
    unfinished: unfinishedOf(meta.get('staged') === true, pending, {
      notStaged: 'its staging never finished',
      pending: `${count(pending, 'claim')} still to send`,
      again: 'run the import again',
    }),
    caseIds: () =>
      dryRun
        ? []
        : (database
            .prepare(
              `SELECT r.case_id FROM rows r JOIN claims c ON c.claim_key = r.claim_key
               WHERE r.case_id IS NOT NULL AND c.claim_id IS NOT NULL
                 AND (r.outcome IS NULL OR r.outcome NOT IN ('invalid', 'rejected'))
                 AND (c.step IN ('created', 'filing', 'done') OR c.sent = 1${everSent})`,
            )
            .pluck()
            .iterate() as IterableIterator<string>),
    lastRunAt: meta.get('settled_by_run_at'),
    size: database.prepare('SELECT count(*) FROM rows').pluck().get() as number,
  };
}

function withdrawFacts(database: Database.Database, file: string): JobFacts {
  const meta = withdrawMetaOf(database, file);
  const pending = database
    .prepare("SELECT count(*) FROM withdraw_targets WHERE step <> 'done'")
    .pluck()
    .get() as number;
  return {
    thinned: meta.get('thinned'),
    written: meta.get('written_files') ?? [],
    unfinished: unfinishedOf(meta.get('staged') === true, pending, {
      notStaged: 'its sources were never read whole',
      pending: `${count(pending, 'claim')} still to take back`,
      again: 'run the withdraw again',
    }),
    // What it took back is closed by it; the claims it could not are the import's to follow.
    caseIds: () => [],
    lastRunAt: undefined,
    size: database.prepare('SELECT count(*) FROM withdraw_targets').pluck().get() as number,
  };
}

function migrateFacts(database: Database.Database, file: string): JobFacts {
  const meta = migrateMetaOf(database, file);
  const pending = database
    .prepare("SELECT count(*) FROM cases WHERE step IN ('staged', 'submitting', 'failed')")
    .pluck()
    .get() as number;
  const dryRun = meta.get('settings')?.dryRun === true;
  return {
    thinned: meta.get('thinned'),
    written: meta.get('written_files') ?? [],
    unfinished: unfinishedOf(meta.get('staged') === true, pending, {
      notStaged: 'its v1 cases were never listed whole',
      pending: `${count(pending, 'case')} still to migrate`,
      again: 'run the migration again',
    }),
    caseIds: () =>
      dryRun
        ? []
        : (database
            .prepare("SELECT case_id FROM cases WHERE step IN ('migrated', 'skipped')")
            .pluck()
            .iterate() as IterableIterator<string>),
    lastRunAt: undefined,
    size: database.prepare('SELECT count(*) FROM cases').pluck().get() as number,
  };
}

function trackFacts(database: Database.Database, file: string): JobFacts {
  const meta = trackMetaOf(database, file);
  return {
    thinned: meta.get('thinned'),
    written: meta.get('written_files') ?? [],
    unfinished: undefined,
    caseIds: () => database.prepare('SELECT case_id FROM track_cases').pluck().iterate() as IterableIterator<string>,
    lastRunAt: (database.prepare('SELECT max(coalesce(ended, started)) FROM track_runs').pluck().get() ?? undefined) as
      string | undefined,
    size: database.prepare('SELECT count(*) FROM track_cases').pluck().get() as number,
  };
}

/** Why a job's work is not over, in its own words, or undefined when it is. */
function unfinishedOf(
  staged: boolean,
  pending: number,
  words: { notStaged: string; pending: string; again: string },
): string | undefined {
  if (!staged) return `${words.notStaged}: ${words.again}`;
  return pending > 0 ? `${words.pending}: ${words.again}` : undefined;
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
}
