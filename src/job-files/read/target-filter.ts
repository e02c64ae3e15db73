import { displayKey } from '../import/write-results.js';

/** What the filters (`--outcome`, claim keys) leave of a line: whether it is wanted. */
export interface TargetFilter {
  outcomes?: readonly string[] | undefined;
  claimKeys?: readonly string[] | undefined;
}

/** Whether an outcome passes `--outcome` (every outcome does without it). */
export function outcomeWanted(outcome: string, filter: TargetFilter): boolean {
  return filter.outcomes === undefined || filter.outcomes.length === 0 || filter.outcomes.includes(outcome);
}

/**
 * Whether a claim passes the claim keys asked for, by any of the forms its key may be given in:
 * as the results show it (`a|b`), as the journal stores it (a JSON array), or a one-column key's
 * value. Keys are compared trimmed. `seen`, when given, collects the keys matched, to tell the
 * ones that named nothing.
 */
export function claimKeyWanted(forms: readonly string[], filter: TargetFilter, seen?: Set<string>): boolean {
  if (filter.claimKeys === undefined || filter.claimKeys.length === 0) return true;
  const matched = filter.claimKeys.filter((key) => forms.includes(key.trim()));
  for (const key of matched) seen?.add(key);
  return matched.length > 0;
}

/** The forms of a journal's stored claim key (a JSON array of the key columns' values). */
export function storedKeyForms(storedKey: string): string[] {
  const values = JSON.parse(storedKey) as unknown[];
  return [displayKey(storedKey), storedKey, ...(values.length === 1 ? [String(values[0])] : [])];
}
