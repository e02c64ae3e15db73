import type { JournalDatabase } from '../../journal/open.js';
import type { Thinned } from '../../journal/retention-meta.js';
import { isGroupKey, thinnedGroupKey } from '../migrate/thin.js';
import type { TrackMeta } from './meta.js';

/**
 * A track journal without the free text it copied from its sources (docs/data.md, "Retention"):
 * each row's job error keeps its code, not the import's message, which may quote the row, and a
 * migrated claim's key becomes its digest. The cases' states (status, amounts, reason, dates) and
 * ids stay: they hold no cardholder details.
 */
export function thinTrackJournal(database: JournalDatabase, meta: TrackMeta, thinned: Thinned): number {
  const changed = database
    .prepare(
      "UPDATE track_rows SET job_error = substr(job_error, 1, instr(job_error, ':') - 1) WHERE instr(job_error, ':') > 0",
    )
    .run().changes;
  // A migrated claim's key is its group key, which may be what its cases were grouped by.
  const keys = database.prepare('SELECT DISTINCT claim_key FROM track_rows').pluck().all() as string[];
  const rename = database.prepare('UPDATE track_rows SET claim_key = ? WHERE claim_key = ?');
  for (const key of keys) if (isGroupKey(key)) rename.run(thinnedGroupKey(key), key);
  meta.set('thinned', thinned);
  return changed;
}
