import type { JournalDatabase } from '../../journal/open.js';
import type { Thinned } from '../../journal/retention-meta.js';
import { isGroupKey, thinnedGroupKey } from '../migrate/thin.js';
import type { WithdrawMeta } from './meta.js';

/**
 * A withdraw journal thinned (docs/data.md, "Retention"): it holds keys, ids, proofs (amount,
 * date, ARN, last four) and outcomes; only a migrated claim's key, its group key, may hold what
 * the cases were grouped by, and becomes its digest.
 */
export function thinWithdrawJournal(database: JournalDatabase, meta: WithdrawMeta, thinned: Thinned): number {
  const keys = database
    .prepare('SELECT claim_key FROM withdraw_targets UNION SELECT claim_key FROM withdraw_lines')
    .pluck()
    .all() as string[];
  let changed = 0;
  for (const key of keys.filter(isGroupKey)) {
    const digest = thinnedGroupKey(key);
    changed += database
      .prepare('UPDATE withdraw_targets SET claim_key = ? WHERE claim_key = ?')
      .run(digest, key).changes;
    database.prepare('UPDATE withdraw_lines SET claim_key = ? WHERE claim_key = ?').run(digest, key);
  }
  meta.set('thinned', thinned);
  return changed;
}
