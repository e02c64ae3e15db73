import { foldText } from './guess/words.js';

/**
 * The header column a mapping's missing column was most likely renamed to (docs/mappings.md,
 * "When the header does not fit"): compared by name only, as a person would see them. Three
 * tiers, the first that finds one wins:
 *
 * 1. the same name once case, accents and punctuation are folded ("Card Number", "card_number");
 * 2. one name inside the other ("Motif" in "Motif du litige"), a prefix first, then the closest
 *    in length: a column gains or loses a word more often than it changes one;
 * 3. a few letters apart: an edit distance of at most a third of the longer name ("transaction_amt"
 *    for "transaction_amount"), the fewest edits first.
 *
 * Nothing near: no suggestion, rather than a guess that sends a person the wrong way.
 */
export function nearestColumn(missing: string, candidates: readonly string[]): string | undefined {
  const wanted = squeeze(missing);
  if (wanted === '') return undefined;
  let best: { column: string; tier: number; distance: number } | undefined;
  for (const column of candidates) {
    const found = closeness(wanted, squeeze(column));
    if (found === undefined) continue;
    if (best === undefined || found.tier < best.tier || (found.tier === best.tier && found.distance < best.distance))
      best = { column, ...found };
  }
  return best?.column;
}

/** Folded, without the spaces folding leaves between words: "Motif du litige" → "motifdulitige". */
function squeeze(name: string): string {
  return foldText(name).replace(/ /g, '');
}

/** Containment needs this much of a name: "id" is inside too many names to say anything. */
const shortestContained = 3;

function closeness(wanted: string, column: string): { tier: number; distance: number } | undefined {
  if (column === '') return undefined;
  if (column === wanted) return { tier: 0, distance: 0 };
  const [shorter, longer] = wanted.length <= column.length ? [wanted, column] : [column, wanted];
  if (shorter.length >= shortestContained && longer.includes(shorter)) {
    const prefix = longer.startsWith(shorter) || longer.endsWith(shorter);
    return { tier: prefix ? 1 : 2, distance: longer.length - shorter.length };
  }
  const limit = Math.floor(longer.length / 3);
  if (limit === 0) return undefined;
  const distance = editDistance(wanted, column, limit);
  return distance <= limit ? { tier: 3, distance } : undefined;
}

/** Levenshtein distance, or `limit + 1` as soon as it is certain to exceed `limit`. */
export function editDistance(one: string, other: string, limit: number): number {
  if (Math.abs(one.length - other.length) > limit) return limit + 1;
  let previous = Array.from({ length: other.length + 1 }, (_, index) => index);
  for (let row = 1; row <= one.length; row++) {
    const current = [row];
    let smallest = row;
    for (let column = 1; column <= other.length; column++) {
      const substitution = (previous[column - 1] ?? 0) + (one[row - 1] === other[column - 1] ? 0 : 1);
      const value = Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, substitution);
      current.push(value);
      smallest = Math.min(smallest, value);
    }
    if (smallest > limit) return limit + 1;
    previous = current;
  }
  return previous[other.length] ?? limit + 1;
}
