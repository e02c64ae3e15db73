import type { JournalDatabase } from '../journal/open.js';
import type { ResultRecord } from '../job-files/import/records.js';
import { resultRecordPages } from '../job-files/import/result-records.js';
import type { SettledRows } from './settled-rows.js';

/** The journal as its results are read: its database, and its open group commit committed now. */
export interface SettledJournal {
  readonly database: JournalDatabase;
  flush(): void;
}

/** Records read at a time: the results wait until this many more rows are settled. */
const pageRows = 1000;

/**
 * The journal's result records in input order, a page at a time as the rows settle
 * (settled-rows.ts): the results file is written while claims are still sent, and once sending
 * ends only the rows of its last claims are left to write. Each page is read just after the open
 * group commit is committed (src/import/journal/group-commit.ts), in the same turn, so a line says
 * only what the journal holds durably, as the results read after sending always did. (Waiting for
 * a turn with no group open starved a dry run, whose claims keep one open in every turn.)
 */
export async function* settledResultRecords(
  journal: SettledJournal,
  settled: SettledRows,
): AsyncGenerator<readonly ResultRecord[]> {
  const page = resultRecordPages(journal.database);
  // The last record given, and the place through which every record has been read.
  let after = -1;
  let readThrough = -1;
  for (;;) {
    await settled.until(readThrough + pageRows);
    journal.flush();
    const ended = settled.ended;
    const through = settled.settledThrough;
    const records = page(after, through, pageRows);
    // A claim in flight holds its rows back whatever its first row says: the page stops before them.
    const heldBack = records.findIndex((record) => record.claim_key !== null && settled.isInFlight(record.claim_key));
    const ready = heldBack === -1 ? records : records.slice(0, heldBack);
    const last = ready.at(-1);
    if (last !== undefined) {
      after = last.idx;
      yield ready;
    }
    if (heldBack !== -1) {
      readThrough = after;
      // Woken when more is settled, that claim's rows among it or not, or at the end.
      await settled.until(through + 1);
    } else if (records.length === pageRows) readThrough = after;
    else if (ended) return;
    else readThrough = through;
  }
}
