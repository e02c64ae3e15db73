import { maskCardNumbers } from '../../card-numbers/mask.js';
import type { JournalDatabase } from '../../journal/open.js';

/**
 * Set once a journal's rows are masked (docs/import.md, "Card numbers"): staged by this version,
 * or masked in place when a run resumes a journal staged by an earlier one.
 */
export const cardNumbersMaskedKey = 'card_numbers_masked';

/**
 * A journal staged before card numbers were masked holds them as read, and a resumed run would send
 * them: its rows' cells, mapped cases, claims' shared fields and messages are masked in place, in one
 * transaction, before anything is sent. JSON stays JSON (digits become `*`, nothing else moves).
 * Claim keys and ids are left as they are: the service knows the claims by them; a journal with a
 * card number in one is started over with `--restart`, which refuses such rows. The text replaced
 * is overwritten, not left in the file's free pages or its write-ahead log (`secure_delete`, then a
 * checkpoint that empties the log). Returns the rows changed (0 for a journal masked already).
 */
export function maskStagedCardNumbers(database: JournalDatabase): number {
  const marked = database.prepare('SELECT value FROM meta WHERE key = ?').get(cardNumbersMaskedKey);
  if (marked !== undefined) return 0;
  database.function('mask_card_numbers', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? maskCardNumbers(text) : text,
  );
  const masked = (column: string) => `${column} = mask_card_numbers(${column})`;
  const changed = (column: string) => `${column} IS NOT mask_card_numbers(${column})`;
  database.pragma('secure_delete = ON');
  const rows = database.transaction(() => {
    const changedRows = database
      .prepare(
        `UPDATE rows SET ${['source', 'case_json', 'error_message'].map(masked).join(', ')}
         WHERE ${['source', 'case_json', 'error_message'].map(changed).join(' OR ')}`,
      )
      .run().changes;
    database
      .prepare(
        `UPDATE claims SET ${['shared_json', 'error_message'].map(masked).join(', ')}
         WHERE ${['shared_json', 'error_message'].map(changed).join(' OR ')}`,
      )
      .run();
    database.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(cardNumbersMaskedKey, '1');
    return changedRows;
  })();
  database.pragma('secure_delete = OFF');
  if (rows > 0) database.pragma('wal_checkpoint(TRUNCATE)');
  return rows;
}
