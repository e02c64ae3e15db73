import type { JournalDatabase } from './open.js';

/**
 * Removing a journal's text for good (docs/data.md, "Retention"): SQLite leaves an updated
 * value's old bytes in the page's free space, in free pages and in the write-ahead log until they
 * are reused. `secure_delete` zeroes what a change frees; the log is emptied before (its frames
 * may hold old pages); VACUUM then rewrites the file with only its live pages, and a last
 * checkpoint empties the log again.
 */
export function beforeRemovingText(database: JournalDatabase): void {
  database.pragma('wal_checkpoint(TRUNCATE)');
  database.pragma('secure_delete = ON');
}

/**
 * After the transaction that removed the text: nothing of it left in the file or its log. VACUUM
 * writes every page of the new file through the log, and the checkpoint after it copies them all
 * over the old file, cuts it to its new length and empties the log: no checkpoint is needed
 * before it (measured on a year of nights: the two checkpoints cost more than the VACUUM).
 */
export function reclaimRemovedText(database: JournalDatabase): void {
  database.exec('VACUUM');
  database.pragma('wal_checkpoint(TRUNCATE)');
  database.pragma('secure_delete = OFF');
}

/**
 * Whether a thinned journal may still hold removed text outside its live pages: a prune stopped
 * after its transaction committed and before the file was rewritten leaves frames in the log or
 * pages on the free list. A later prune rewrites it.
 */
export function textMayRemain(database: JournalDatabase): boolean {
  const free = database.pragma('freelist_count', { simple: true }) as number;
  const log = database.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
  return free > 0 || (log[0]?.log ?? 0) > 0;
}
