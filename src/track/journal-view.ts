import { rm } from 'node:fs/promises';
import { isSqlite } from '../files/file-kind.js';
import { snapshotOf } from '../import/journal/snapshot.js';
import { serviceOf } from '../report/read-journal.js';
import { isTrackJournalTables, rowsWithStatesSql, type RowWithState } from '../track-journal/journal.js';
import { statusLineOf, type WorkItem } from './status.js';
import type { TrackSummary } from './summary.js';
import { TrackTally } from './tally.js';

export interface TrackView {
  summary: TrackSummary;
  worklist: WorkItem[];
  service: string;
  /** When the last finished run started ('' when none finished). */
  lastRunAt: string;
}

/**
 * A track journal as its last run left it, read from a private copy (the run that owns it may
 * go on): the summary and the worklist, with the days left counted from `asOf`. Undefined when
 * the file is not a track journal (the report reads it as another journal).
 */
export async function viewTrackJournal(file: string, options: { dueWithinDays: number; asOf: number }): Promise<TrackView | undefined> {
  if (!(await isSqlite(file))) return undefined;
  const { database, folder } = await snapshotOf(file);
  try {
    const tables = new Set((database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((row) => row.name));
    if (!isTrackJournalTables(tables)) return undefined;
    const last = database.prepare('SELECT run, started FROM track_runs WHERE ended IS NOT NULL ORDER BY run DESC LIMIT 1').get() as { run: number; started: string } | undefined;
    const tally = new TrackTally(options.dueWithinDays);
    for (const row of database.prepare(rowsWithStatesSql).iterate() as IterableIterator<RowWithState>) tally.add(statusLineOf(row, last?.run ?? 0, options.asOf));
    return { worklist: tally.worklist(), summary: tally.summary, service: serviceOf(database), lastRunAt: last?.started ?? '' };
  } finally {
    database.close();
    await rm(folder, { recursive: true, force: true });
  }
}
