import { lstatSync } from 'node:fs';
import { importMetaOf } from '../job-files/import/meta.js';
import { thinImportJournal } from '../job-files/import/thin.js';
import { migrateMetaOf } from '../job-files/migrate/meta.js';
import { thinMigrateJournal } from '../job-files/migrate/thin.js';
import { trackMetaOf } from '../job-files/track/meta.js';
import { thinTrackJournal } from '../job-files/track/thin.js';
import { withdrawMetaOf } from '../job-files/withdraw/meta.js';
import { thinWithdrawJournal } from '../job-files/withdraw/thin.js';
import type { JournalKind } from '../journal/kind.js';
import { openLockedDatabase } from '../journal/open.js';
import { beforeRemovingText, reclaimRemovedText, textMayRemain } from '../journal/reclaim.js';
import type { Thinned } from '../journal/retention-meta.js';

/**
 * A journal thinned in one transaction, or not at all (docs/data.md, "Retention"): opened locked
 * as a run opens it (a run holding it is `JOURNAL_BUSY`), its kind's personal data removed with
 * `thinned` recorded in the same commit, then the file rewritten so the old text is in no page of
 * it or its log. A prune killed before the commit leaves the journal whole; after it, thinned,
 * and the next prune rewrites what may remain (`reclaimIfNeeded`).
 */
export function thinJournal(file: string, kind: JournalKind, thinned: Thinned, asRead: ReadAs): 'thinned' | 'changed' {
  const database = openLockedDatabase(file, 'a journal');
  try {
    if (!stillAsRead(file, asRead)) return 'changed';
    beforeRemovingText(database);
    database.transaction(() => {
      switch (kind) {
        case 'import':
          thinImportJournal(database, importMetaOf(database, file), thinned);
          return;
        case 'migrate-v1':
          thinMigrateJournal(database, migrateMetaOf(database, file), thinned);
          return;
        case 'track':
          thinTrackJournal(database, trackMetaOf(database, file), thinned);
          return;
        case 'withdraw':
          thinWithdrawJournal(database, withdrawMetaOf(database, file), thinned);
          return;
      }
    })();
    reclaimRemovedText(database);
    return 'thinned';
  } finally {
    database.close();
  }
}

/** The journal's size and time, and its log's size, when prune assessed it. */
export interface ReadAs {
  readonly bytes: number;
  readonly modified: Date;
  readonly logBytes: number;
}

/**
 * Whether the journal is as prune read it, checked once it holds the lock: a run that wrote to
 * it in between (a `--restart` staging rows again) makes prune's reading stale, and the job is
 * left for the next prune.
 */
function stillAsRead(file: string, asRead: ReadAs): boolean {
  const found = lstatSync(file);
  const log = lstatSync(`${file}-wal`, { throwIfNoEntry: false });
  return (
    found.size === asRead.bytes && // A Date keeps whole milliseconds of the file's time.
    Math.abs(found.mtimeMs - asRead.modified.getTime()) < 1 &&
    (log?.size ?? 0) === asRead.logBytes
  );
}

/** A thinned journal whose rewrite a stopped prune never finished: rewritten now. Returns whether it was. */
export function reclaimIfNeeded(file: string): boolean {
  const database = openLockedDatabase(file, 'a journal');
  try {
    if (!textMayRemain(database)) return false;
    beforeRemovingText(database);
    reclaimRemovedText(database);
    return true;
  } finally {
    database.close();
  }
}
