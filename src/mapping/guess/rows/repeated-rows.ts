import type { Sample } from '../types.js';

/**
 * Rows of the sample that repeat an earlier one cell for cell: the import reports the later ones
 * `duplicate` (docs/import.md, "Duplicates"), which a person preparing a mapping should know
 * before the first run counts fewer cases than lines.
 */

/** Each group of identical rows (two or more), as the lines they stand on, in the sample's order. */
export function repeatedRows(sample: Sample, firstLine: number): number[][] {
  const groups = new Map<string, number[]>();
  sample.rows.forEach((row, index) => {
    const cells = JSON.stringify(sample.columns.map((column) => row[column] ?? ''));
    const lines = groups.get(cells);
    if (lines === undefined) groups.set(cells, [firstLine + index]);
    else lines.push(firstLine + index);
  });
  return [...groups.values()].filter((lines) => lines.length > 1);
}

/** `rows 2, 3 and 4 are identical: the import reports the later ones as duplicate`. */
export function repeatedRowsMessage(lines: readonly number[]): string {
  const listed =
    lines.length === 2 ? `${lines[0]} and ${lines[1]}` : `${lines.slice(0, -1).join(', ')} and ${lines.at(-1)}`;
  const later = lines.length === 2 ? 'the later one' : 'the later ones';
  return `rows ${listed} are identical: the import reports ${later} as duplicate (one case for them all)`;
}
