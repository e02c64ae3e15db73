import type { JournalDatabase } from '../../journal/open.js';
import type { Thinned } from '../../journal/retention-meta.js';
import type { TrackMeta } from './meta.js';

/**
 * A track journal without the free text it copied from its sources (docs/data.md, "Retention"):
 * each row's job error keeps its code, not the import's message, which may quote the row. The
 * cases' states (status, amounts, reason, dates) and ids stay: they hold no cardholder details.
 */
export function thinTrackJournal(database: JournalDatabase, meta: TrackMeta, thinned: Thinned): number {
  const changed = database
    .prepare(
      "UPDATE track_rows SET job_error = substr(job_error, 1, instr(job_error, ':') - 1) WHERE instr(job_error, ':') > 0",
    )
    .run().changes;
  meta.set('thinned', thinned);
  return changed;
}
