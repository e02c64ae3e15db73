import { createHash } from 'node:crypto';
import type { JournalDatabase } from '../../journal/open.js';
import type { Thinned } from '../../journal/retention-meta.js';
import { quotableTexts, scrubbed } from '../thinning/kept-fields.js';
import type { MigrateMeta } from './meta.js';

/**
 * A migration journal without what it was grouped by (docs/data.md, "Retention"): `--group-by`
 * may name the cardholder's e-mail, so each value becomes its digest (cases that were grouped
 * together still are), and a message that quoted it is replaced. Ids, steps and codes stay.
 */
export function thinMigrateJournal(database: JournalDatabase, meta: MigrateMeta, thinned: Thinned): number {
  const cases = database.prepare('SELECT idx, group_key, error_message FROM cases').all() as {
    idx: number;
    group_key: string;
    error_message: string | null;
  }[];
  const update = database.prepare('UPDATE cases SET group_key = ?, error_message = ? WHERE idx = ?');
  for (const found of cases) {
    const digest = found.group_key.startsWith(digestPrefix)
      ? found.group_key
      : `${digestPrefix}${createHash('sha256').update(found.group_key).digest('hex')}`;
    update.run(digest, scrubbed(found.error_message, quotableTexts([JSON.stringify(found.group_key)])), found.idx);
  }
  meta.set('thinned', thinned);
  return cases.length;
}

const digestPrefix = 'sha256:';
