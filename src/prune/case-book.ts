import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeOf } from '../errors/coded-error.js';
import { finalStatuses } from '../job-files/track/case-state.js';

/**
 * What the tool last saw of each case at the service, gathered from the track journals and the
 * withdraw journals among the files pruned (docs/data.md, "Retention"): whether it is closed,
 * and since when. A case no journal saw closed is open or unknown, and its job is left alone.
 *
 * Kept in a SQLite file of its own in a private temporary folder, not in memory: a year of
 * nights is hundreds of thousands of cases.
 */
export interface CaseSeen {
  /** When it closed (decided, withdrawn, or gone from the service), ISO 8601; null while open. */
  readonly closedAt: string | null;
  /** When it was last read, ISO 8601. */
  readonly seenAt: string;
}

export class CaseBook {
  private constructor(
    private readonly folder: string,
    private readonly database: Database.Database,
  ) {}

  static async open(): Promise<CaseBook> {
    const folder = await mkdtemp(join(tmpdir(), 'bulk-disputes-prune-'));
    const database = new Database(join(folder, 'cases.sqlite'));
    database.pragma('journal_mode = OFF');
    database.pragma('synchronous = OFF');
    database.exec('CREATE TABLE cases (case_id TEXT PRIMARY KEY, closed_at TEXT, seen_at TEXT NOT NULL) WITHOUT ROWID');
    return new CaseBook(folder, database);
  }

  /**
   * What a track journal last read of its cases, and the cases a withdraw journal took back
   * (closed by it, when its journal was last written): read by SQLite straight into the book,
   * the journal attached for the one statement, so that no case passes through JavaScript (a year
   * of nights is a million of them). Returns false when a run holds the journal locked.
   */
  addJournal(file: string, kind: 'track' | 'withdraw', writtenAt: Date): boolean {
    try {
      this.database.prepare('ATTACH DATABASE ? AS source').run(file);
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    }
    try {
      this.database
        .prepare(kind === 'track' ? fromTrack : fromWithdraw)
        .run(kind === 'track' ? {} : { at: writtenAt.toISOString() });
      return true;
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    } finally {
      this.database.exec('DETACH DATABASE source');
    }
  }

  /**
   * The cases named, as seen: how many are open, how many no journal saw, and the last closing
   * among the rest. `caseIds` is read once, as it comes.
   */
  tally(caseIds: Iterable<string>): CaseTally {
    // Looked up a batch at a time, counted in SQL: one statement per id was most of a nightly
    // prune's time (a year of nights: 1.1 million lookups).
    const look = this.database.prepare(
      `SELECT count(*) AS found, coalesce(sum(closed_at IS NULL), 0) AS open, max(closed_at) AS last_closed,
         max(seen_at) AS last_seen FROM cases WHERE case_id IN (SELECT value FROM json_each(?))`,
    );
    const tally: CaseTally = { cases: 0, open: 0, unseen: 0, lastClosedAt: undefined, lastSeenAt: undefined };
    const later = (a: string | undefined, b: string | null) => (b !== null && (a === undefined || b > a) ? b : a);
    let batch = new Set<string>();
    const flush = () => {
      if (batch.size === 0) return;
      const found = look.get(JSON.stringify([...batch])) as {
        found: number;
        open: number;
        last_closed: string | null;
        last_seen: string | null;
      };
      tally.cases += batch.size;
      tally.unseen += batch.size - found.found;
      tally.open += found.open;
      tally.lastClosedAt = later(tally.lastClosedAt, found.last_closed);
      tally.lastSeenAt = later(tally.lastSeenAt, found.last_seen);
      batch = new Set();
    };
    for (const caseId of caseIds) {
      batch.add(caseId);
      if (batch.size >= tallyBatch) flush();
    }
    flush();
    return tally;
  }

  async close(): Promise<void> {
    this.database.close();
    await rm(this.folder, { recursive: true, force: true });
  }
}

/** Case ids looked up in one statement. */
const tallyBatch = 500;

export interface CaseTally {
  cases: number;
  open: number;
  /** Named by the job, read by no track journal found. */
  unseen: number;
  lastClosedAt: string | undefined;
  lastSeenAt: string | undefined;
}

const isBusy = (error: unknown) => codeOf(error) === 'SQLITE_BUSY' || codeOf(error) === 'SQLITE_LOCKED';

/** Times compared as text, so all in one form: an event's `…:00Z` and a run's `…:00.000Z` alike. */
const iso = (time: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${time})`;

/** The latest reading of a case wins: a case read open after it was read closed was reopened. */
const latestWins = `ON CONFLICT (case_id) DO UPDATE SET closed_at = excluded.closed_at, seen_at = excluded.seen_at
  WHERE excluded.seen_at > cases.seen_at`;

/** A case's state is a JSON array whose second value is its status (src/job-files/track/case-state.ts). */
const decided = `(c.missing = 1 OR json_extract(c.state, '$[1]') IN (${[...finalStatuses].map((status) => `'${status}'`).join(', ')}))`;
const readAt = `coalesce(r.ended, r.started, c.decided_at, '1970-01-01T00:00:00.000Z')`;

const fromTrack = `INSERT INTO cases (case_id, closed_at, seen_at)
  SELECT c.case_id, CASE WHEN ${decided} THEN ${iso(`coalesce(c.decided_at, ${readAt})`)} END, ${iso(readAt)}
  FROM source.track_cases c LEFT JOIN source.track_runs r ON r.run = c.read_run
  WHERE c.state IS NOT NULL OR c.missing = 1
  ${latestWins}`;

const fromWithdraw = `INSERT INTO cases (case_id, closed_at, seen_at)
  SELECT DISTINCT case_id, ${iso(':at')}, ${iso(':at')} FROM source.withdraw_lines
  WHERE case_id <> '' AND outcome IN ('withdrawn', 'deleted', 'already_closed', 'not_found')
  ${latestWins}`;
