import { maskCardNumbers } from '../../card-numbers/mask.js';
import type { JournalDatabase } from '../../journal/open.js';
import type { ImportMeta } from './meta.js';

/**
 * A journal staged before card numbers were masked holds them as read, and a resumed run would send
 * them: its rows' cells, mapped cases, claims' shared fields and messages are masked in place, in one
 * transaction, before anything is sent. JSON stays JSON (digits become `*`, nothing else moves).
 * Claim keys and ids are left as they are: the service knows the claims by them; a journal with a
 * card number in one is started over with `--restart`, which refuses such rows. The text replaced
 * is overwritten, not left in the file's free pages or its write-ahead log (`secure_delete`, then a
 * checkpoint that empties the log). Returns the rows changed (0 for a journal masked already).
 */
export function maskStagedCardNumbers(database: JournalDatabase, meta: ImportMeta): number {
  // Set once a journal's rows are masked (docs/import.md, "Card numbers"): staged by this version, or masked in place since.
  if (meta.has('card_numbers_masked')) return 0;
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
    meta.set('card_numbers_masked', '1');
    return changedRows;
  })();
  database.pragma('secure_delete = OFF');
  if (rows > 0) database.pragma('wal_checkpoint(TRUNCATE)');
  return rows;
}
