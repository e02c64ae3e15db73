/**
 * How a language's vocabulary file writes its words: each role's names on one line, so a language
 * reads as a compact table of its words. The matching (header-names.ts, words.ts) sees arrays.
 */

/** Names separated by commas, as a person reads them: `'dispute ref, dispute reference'`. */
export function namesOf(line: string): readonly string[] {
  const names = line.split(',').map((name) => name.trim());
  // A stray comma would make an empty name, which every header would contain.
  if (names.includes('')) throw new Error(`expected names separated by commas, got ${JSON.stringify(line)}`);
  return names;
}

/** A role's names per role, each role a line of comma-separated names (`namesOf`), in the table's order. */
export function namesByRole(table: Readonly<Record<string, string>>): Readonly<Record<string, readonly string[]>> {
  return Object.fromEntries(Object.entries(table).map(([role, line]) => [role, namesOf(line)]));
}

/** Words separated by spaces: stop words are single words. */
export function wordsOf(line: string): readonly string[] {
  return line.split(' ').filter((word) => word !== '');
}
