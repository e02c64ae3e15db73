import { RefusalError } from '../../errors/coded-error.js';
import type { Thinned } from '../../journal/retention-meta.js';

/**
 * A thinned journal (docs/data.md, "Retention"): `prune` removed its rows' cells, evidence paths
 * and all but the transaction's proof of their mapped cases. What needs them refuses it in one
 * sentence before doing anything, rather than write empty cells or a wrong page.
 */
export class JournalThinnedError extends RefusalError {
  readonly code = 'JOURNAL_THINNED';
}

/** What a command needs of the removed fields, and what to do instead: the two halves of its refusal. */
export interface ThinnedUse {
  /** What the command would have made of them: "a workbook of every line needs the rows' cells". */
  readonly needs: string;
  readonly instead: string;
}

/** The day prune thinned it, as people read it in a message (`2025-03-04`). */
export function thinnedOn(thinned: Thinned): string {
  return thinned.at.slice(0, 10);
}

/** Refuses a journal `prune` thinned, naming the file, the day and what to do instead; nothing for one it did not. */
export function refuseThinned(file: string, thinned: Thinned | undefined, use: ThinnedUse): void {
  if (thinned === undefined) return;
  throw new JournalThinnedError(
    `${file}: expected a journal that still holds its rows' cells (${use.needs}), got one thinned by prune on ` +
      `${thinnedOn(thinned)} (their personal-data period had passed): ${use.instead}`,
  );
}
