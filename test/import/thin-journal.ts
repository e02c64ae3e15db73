import Database from 'better-sqlite3';
import { Journal } from '../../src/import/journal/journal.js';
import { thinImportJournal } from '../../src/job-files/import/thin.js';
import { beforeRemovingText, reclaimRemovedText } from '../../src/journal/reclaim.js';

/** When the tests' prune ran: a fixed day, so that messages naming it can be read exactly. */
export const thinnedAt = '2031-04-05T06:07:08.000Z';

/** An import journal thinned as `prune` thins it (src/job-files/import/thin.ts), with its text reclaimed. */
export function thinJournal(file: string): void {
  const journal = new Journal(file);
  try {
    beforeRemovingText(journal.database);
    journal.transaction(() =>
      thinImportJournal(journal.database, journal.meta, {
        at: thinnedAt,
        keep_personal_data: '90d',
        keep_records: '7y',
      }),
    );
    reclaimRemovedText(journal.database);
  } finally {
    journal.close();
  }
}

/** Every row's `source` as the journal holds it, in input order. */
export function sourcesIn(file: string): string[] {
  const database = new Database(file, { readonly: true });
  try {
    return (database.prepare('SELECT source FROM rows ORDER BY idx').all() as { source: string }[]).map(
      (row) => row.source,
    );
  } finally {
    database.close();
  }
}

/** One meta value as stored, or undefined. */
export function metaIn(file: string, key: string): string | undefined {
  const database = new Database(file, { readonly: true });
  try {
    return (database.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  } finally {
    database.close();
  }
}
