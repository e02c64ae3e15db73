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
  for (const found of cases)
    update.run(
      thinnedGroupKey(found.group_key),
      scrubbed(found.error_message, quotableTexts([JSON.stringify(found.group_key)])),
      found.idx,
    );
  meta.set('thinned', thinned);
  return cases.length;
}

const digestPrefix = 'sha256:';

/**
 * A group key as a thinned journal keeps it: its digest, unless it names only the case (`case="…"`,
 * a case migrated alone), which is an id. The same digest wherever the key was copied, so that a
 * thinned track or withdraw journal still matches the migration's.
 */
export function thinnedGroupKey(key: string): string {
  if (key.startsWith(digestPrefix) || /^case="[^"]*"$/.test(key)) return key;
  return `${digestPrefix}${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * Whether a claim key is a migration's group key (`field="value";…`, src/job-files/migrate/group.ts):
 * what track and withdraw copy as the claim key of a migrated claim, and which may hold what the
 * cases were grouped by, an e-mail say.
 */
export function isGroupKey(key: string): boolean {
  return /^[a-z_][a-z0-9_.]*="(?:[^"\\]|\\.)*"(?:;[a-z_][a-z0-9_.]*="(?:[^"\\]|\\.)*")*$/i.test(key);
}
