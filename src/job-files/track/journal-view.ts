import { rm } from 'node:fs/promises';
import type { ServiceIdentity } from '../../api/service-identity.js';
import { isSqlite } from '../../files/file-kind.js';
import { snapshotOf } from '../../journal/snapshot.js';
import { serviceOf } from '../read/read-journal.js';
import { rowsWithStatesSql, type RowWithState } from './journal.js';
import { trackMetaOf, type TrackSourcesRecord } from './meta.js';
import { statusLineOf, type StatusLine } from './status.js';
import type { WorkItem } from './worklist.js';
import type { TrackSummary } from './summary.js';
import { TrackTally } from './tally.js';
import { journalKindOf, tablesOf } from '../../journal/kind.js';

/** The `--due-within` of a journal whose runs did not record theirs: track's default. */
export const defaultDueWithinDays = 7;

export interface TrackView {
  summary: TrackSummary;
  worklist: WorkItem[];
  service: string;
  /** When the last finished run started ('' when none finished). */
  lastRunAt: string;
  /** The `--due-within` the worklist was drawn with: the last run's. */
  dueWithinDays: number;
  /** What a run repeats to read the same cases again (undefined when no run staged its sources). */
  sources: TrackSourcesRecord | undefined;
  /** The service the journal belongs to, as recorded (undefined in a journal that records none). */
  serviceIdentity: ServiceIdentity | undefined;
}

/**
 * A track journal as its last run left it, read from a private copy (the run that owns it may
 * go on): the summary and the worklist, with the days left counted from `asOf` and the due window
 * its last run used. `onLine` sees every status line, in the status file's order. Undefined when
 * the file is not a track journal (the report reads it as another journal).
 */
export async function viewTrackJournal(
  file: string,
  options: { asOf: number; onLine?: (line: StatusLine) => void },
): Promise<TrackView | undefined> {
  if (!(await isSqlite(file))) return undefined;
  const { database, folder } = await snapshotOf(file);
  try {
    const tables = tablesOf(database);
    if (journalKindOf(tables) !== 'track') return undefined;
    const meta = trackMetaOf(database, file);
    const recorded = Number(meta.get('due_within'));
    // Not recorded (a journal of an earlier version): NaN, so track's default.
    const dueWithinDays = Number.isInteger(recorded) && recorded >= 0 ? recorded : defaultDueWithinDays;
    const last = database
      .prepare('SELECT run, started FROM track_runs WHERE ended IS NOT NULL ORDER BY run DESC LIMIT 1')
      .get() as { run: number; started: string } | undefined;
    const tally = new TrackTally(dueWithinDays);
    for (const row of database.prepare(rowsWithStatesSql).iterate() as IterableIterator<RowWithState>) {
      const line = statusLineOf(row, last?.run ?? 0, options.asOf);
      tally.add(line);
      options.onLine?.(line);
    }
    return {
      worklist: tally.worklist(),
      summary: tally.summary,
      service: serviceOf(meta.get('service'), false),
      lastRunAt: last?.started ?? '',
      dueWithinDays,
      sources: meta.get('sources'),
      serviceIdentity: meta.get('service'),
    };
  } finally {
    database.close();
    await rm(folder, { recursive: true, force: true });
  }
}
