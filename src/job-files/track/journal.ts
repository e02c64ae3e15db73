import { JobJournal, openJobDatabase } from '../../journal/job-journal.js';
import type { JournalDatabase } from '../../journal/open.js';
import { trackMetaFields } from './meta.js';

/** Bumped when the tables change: an older track journal is refused rather than misread. */
export const trackJournalFormat = '2';

/**
 * The journal of `bulk-disputes track` (docs/track.md): the rows its sources name, the last state
 * read of each of their cases, and the events cursor that makes the next run incremental. Its
 * tables are its own (`track_rows`, `track_cases`), so it is never taken for an import's,
 * migration's or withdrawal's journal. Like every journal it belongs to one service and is
 * readable by its owner only (0600).
 *
 * A room of its own, below the command and the report: both read it with this code.
 */
const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS track_rows (
  seq INTEGER PRIMARY KEY,
  source INTEGER NOT NULL,   -- the source's place among the arguments; rows go out by source, line, seq
  job TEXT NOT NULL,         -- the source's name, the job it stands for
  line INTEGER NOT NULL,     -- the row's line in its source (an import's input line for a journal)
  claim_key TEXT NOT NULL,
  claim_id TEXT NOT NULL,
  case_id TEXT NOT NULL,     -- '' while only the claim is known, or when the row reached no case
  note TEXT NOT NULL,        -- why a row has no case at the service ('' when it has one)
  job_outcome TEXT NOT NULL DEFAULT '',  -- the row's outcome in the job that made it (not_filed, created, …), '' for a list
  job_error TEXT NOT NULL DEFAULT ''     -- that job's error for the row, "code: message" ('' when none)
);
CREATE INDEX IF NOT EXISTS track_rows_case ON track_rows (case_id);
CREATE INDEX IF NOT EXISTS track_rows_order ON track_rows (source, line, seq);
CREATE TABLE IF NOT EXISTS track_cases (
  case_id TEXT PRIMARY KEY,
  state TEXT,                -- JSON of the fields tracked (case-state.ts), null until first read
  first_run INTEGER,         -- the run that first read it
  read_run INTEGER,          -- the run that last read it
  changed_run INTEGER,       -- the run whose read found it different from the read before
  stale INTEGER NOT NULL DEFAULT 1,  -- 1: to be read (never read, or named by an event since)
  last_event TEXT,           -- the newest event's time that named it: when it moved
  decided_at TEXT,           -- when it was first read decided (won, lost, closed): its move's event time, else the run's
  missing INTEGER NOT NULL DEFAULT 0 -- 1: the service answered 404
);
CREATE INDEX IF NOT EXISTS track_cases_stale ON track_cases (stale) WHERE stale = 1;
CREATE TABLE IF NOT EXISTS track_runs (
  run INTEGER PRIMARY KEY,
  started TEXT NOT NULL,
  ended TEXT,
  kind TEXT NOT NULL,        -- first | incremental | full
  requests TEXT              -- JSON: requests by kind
);
`;

export interface TrackRowRecord {
  seq: number;
  source: number;
  job: string;
  line: number;
  claim_key: string;
  claim_id: string;
  case_id: string;
  note: string;
  job_outcome: string;
  job_error: string;
}

export interface TrackCaseRecord {
  case_id: string;
  state: string | null;
  first_run: number | null;
  read_run: number | null;
  changed_run: number | null;
  stale: number;
  missing: number;
  last_event: string | null;
  decided_at: string | null;
}

export type TrackRow = Omit<TrackRowRecord, 'seq'>;

/** Every row with its case's last state, in the sources' order: what the status file writes, on any connection to a track journal. */
export const rowsWithStatesSql =
  'SELECT r.*, c.state, c.first_run, c.changed_run, c.read_run, c.missing, c.decided_at FROM track_rows ' +
  "r LEFT JOIN track_cases c ON c.case_id = r.case_id AND r.case_id <> '' ORDER BY r.source, r.line, " +
  'r.seq';

/** A row with the last state read of its case (null columns: no case, or not read yet). */
export interface RowWithState extends Omit<TrackRowRecord, 'job_outcome' | 'job_error'> {
  /** Undefined in a journal made before rows kept their job's outcome, read without opening it for writing. */
  job_outcome?: string;
  job_error?: string;
  state: string | null;
  first_run: number | null;
  changed_run: number | null;
  read_run: number | null;
  missing: number | null;
  decided_at: string | null;
}

export class TrackJournal extends JobJournal<typeof trackMetaFields> {
  private readonly statements;

  constructor(file: string) {
    super(openJobDatabase(file, schema, 'a track journal'), trackMetaFields, file);
    addJobColumns(this.database);
    const prepare = (sql: string) => this.database.prepare(sql);
    this.statements = {
      insertRow: prepare(
        'INSERT INTO track_rows (source, job, line, claim_key, claim_id, case_id, note, job_outcome, job_error) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      insertCase: prepare('INSERT OR IGNORE INTO track_cases (case_id) VALUES (?)'),
      caseOf: prepare('SELECT * FROM track_cases WHERE case_id = ?'),
      hasCase: prepare('SELECT 1 FROM track_cases WHERE case_id = ?'),
      markStale: prepare(
        'UPDATE track_cases SET stale = 1, last_event = CASE WHEN last_event IS NULL OR last_event < ? THEN ? ELSE last_event END WHERE case_id = ?',
      ),
      markAllStale: prepare('UPDATE track_cases SET stale = 1'),
      stale: prepare('SELECT case_id FROM track_cases WHERE stale = 1 ORDER BY rowid'),
      staleCount: prepare('SELECT count(*) AS n FROM track_cases WHERE stale = 1'),
      caseCount: prepare('SELECT count(*) AS n FROM track_cases'),
      readCount: prepare('SELECT count(*) AS n FROM track_cases WHERE state IS NOT NULL'),
      saveState: prepare(
        'UPDATE track_cases SET state = ?, first_run = coalesce(first_run, read_run, ?), read_run = ?, ' +
          'changed_run = CASE WHEN state IS NULL OR state <> ? THEN ? ELSE changed_run END, decided_at = CASE ' +
          'WHEN ? AND decided_at IS NULL THEN coalesce(last_event, ?) ELSE decided_at END, stale = 0, missing = ' +
          '0 WHERE case_id = ?',
      ),
      saveMissing: prepare(
        'UPDATE track_cases SET first_run = coalesce(first_run, read_run, ?), read_run = ?, changed_run = ' +
          'CASE WHEN missing = 0 THEN ? ELSE changed_run END, stale = 0, missing = 1 WHERE case_id = ?',
      ),
      claimRows: prepare("SELECT * FROM track_rows WHERE case_id = '' AND note = '' ORDER BY seq"),
      setRowCase: prepare('UPDATE track_rows SET case_id = ?, note = ? WHERE seq = ?'),
      rows: prepare(rowsWithStatesSql),
      casesInOrder: prepare('SELECT case_id FROM track_cases ORDER BY rowid'),
      startRun: prepare('INSERT INTO track_runs (started, kind) VALUES (?, ?)'),
      endRun: prepare('UPDATE track_runs SET ended = ?, requests = ? WHERE run = ?'),
      completedRuns: prepare('SELECT count(*) AS n FROM track_runs WHERE ended IS NOT NULL'),
    };
  }

  /** Everything the sources named is forgotten (the cursor and the service stay with the caller). */
  reset(): void {
    this.empty(['track_rows', 'track_cases'], { meta: false });
  }

  /** A journal of a job: its sources were read into it (bound-journal.ts). */
  holdsJob(): boolean {
    return this.meta.has('sources');
  }

  /** A case was read from the service. */
  holdsServiceData(): boolean {
    return this.readCount() > 0;
  }

  /** `--restart` onto another service: the rows, the cases read there and the place in its events forgotten. */
  forgetService(): void {
    this.transaction(() => {
      this.reset();
      this.meta.delete('events_cursor');
      this.meta.delete('sources');
    });
  }

  addRow(row: TrackRow): void {
    const { source, job, line, claim_key, claim_id, case_id, note, job_outcome, job_error } = row;
    this.statements.insertRow.run(source, job, line, claim_key, claim_id, case_id, note, job_outcome, job_error);
    if (row.case_id !== '') this.statements.insertCase.run(row.case_id);
  }

  /** A case tracked without a source row naming it (`--all`): the status file has a line for it all the same. */
  addCase(caseId: string): boolean {
    return this.statements.insertCase.run(caseId).changes > 0;
  }

  hasCase(caseId: string): boolean {
    return this.statements.hasCase.get(caseId) !== undefined;
  }

  caseRecord(caseId: string): TrackCaseRecord | undefined {
    return this.statements.caseOf.get(caseId) as TrackCaseRecord | undefined;
  }

  /** An event named the case since the last run: read it again. `at`: the event's time ('' unknown). */
  markStale(caseId: string, at = ''): boolean {
    return this.statements.markStale.run(at, at === '' ? null : at, caseId).changes > 0;
  }

  markAllStale(): void {
    this.statements.markAllStale.run();
  }

  staleCases(): string[] {
    return (this.statements.stale.all() as { case_id: string }[]).map((row) => row.case_id);
  }

  staleCount(): number {
    return (this.statements.staleCount.get() as { n: number }).n;
  }

  caseCount(): number {
    return (this.statements.caseCount.get() as { n: number }).n;
  }

  readCount(): number {
    return (this.statements.readCount.get() as { n: number }).n;
  }

  allCaseIds(): string[] {
    return (this.statements.casesInOrder.all() as { case_id: string }[]).map((row) => row.case_id);
  }

  /**
   * The state read now; `changed_run` moves only when it differs from the one read before. A
   * decided case keeps the time it was first seen decided: the event that moved it, else `at`.
   */
  saveState(caseId: string, state: string, run: number, decided: { final: boolean; at: string }): void {
    this.statements.saveState.run(state, run, run, state, run, decided.final ? 1 : 0, decided.at, caseId);
  }

  saveMissing(caseId: string, run: number): void {
    this.statements.saveMissing.run(run, run, run, caseId);
  }

  /** Rows that name a claim only: their cases come from a retrieve of the claim. */
  claimOnlyRows(): TrackRowRecord[] {
    return this.statements.claimRows.all() as TrackRowRecord[];
  }

  /** A claim-only row gets its claim's first case; each further case is a row of its own after it. */
  expandClaimRow(row: TrackRowRecord, caseIds: readonly string[], note: string): void {
    const [first, ...rest] = caseIds;
    this.statements.setRowCase.run(first ?? '', first === undefined ? note : '', row.seq);
    if (first !== undefined) this.statements.insertCase.run(first);
    for (const caseId of rest) this.addRow({ ...row, case_id: caseId, note: '' });
  }

  *rowsWithStates(): Generator<RowWithState> {
    yield* this.statements.rows.iterate() as IterableIterator<RowWithState>;
  }

  startRun(kind: 'first' | 'incremental' | 'full', at: string): number {
    return Number(this.statements.startRun.run(at, kind).lastInsertRowid);
  }

  endRun(run: number, at: string, requests: Record<string, number>): void {
    this.statements.endRun.run(at, JSON.stringify(requests), run);
  }

  /** Whether a run ever finished: before that, every run is a first run. */
  completedRuns(): number {
    return (this.statements.completedRuns.get() as { n: number }).n;
  }

  transaction<T>(work: () => T): T {
    return this.database.transaction(work)();
  }
}

/**
 * A journal made before rows kept their job's outcome gets the two columns, empty; its sources are
 * read again on the next run (the format is part of what the rows were staged from), which fills them.
 */
function addJobColumns(database: JournalDatabase): void {
  const columns = new Set(
    (database.pragma('table_info(track_rows)') as { name: string }[]).map((column) => column.name),
  );
  for (const name of ['job_outcome', 'job_error'])
    if (!columns.has(name)) database.exec(`ALTER TABLE track_rows ADD COLUMN ${name} TEXT NOT NULL DEFAULT ''`);
}
