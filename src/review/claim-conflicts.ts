import { mapCells } from '../mapping/compile/index.js';
import type { Mapping } from '../mapping/schema.js';
import { fieldColumns } from '../mapping/columns-read.js';
import { firstDifference } from '../job-files/claims/wire-fields.js';
import type { CellProblem } from './check-row.js';

/** One row of a claim, as the review has it now (edited or not). */
export interface ClaimSibling {
  readonly line: number;
  readonly cells: Readonly<Record<string, string>>;
}

/**
 * Rows of one claim must agree on the claim's shared fields (staging refuses a later row that
 * differs: `shared_field_mismatch`). A row's disagreement with each other row of its claim, as a
 * problem on this row naming the other line, so the page shows the conflict on both.
 */
export function claimConflicts(row: ClaimSibling, siblings: readonly ClaimSibling[], mapping: Mapping): CellProblem[] {
  const mine = mapCells(row.cells, mapping);
  if (!mine.ok) return [];
  const columnsOf = fieldColumns(mapping);
  const problems: CellProblem[] = [];
  for (const sibling of siblings) {
    if (sibling.line === row.line) continue;
    const theirs = mapCells(sibling.cells, mapping);
    if (!theirs.ok) continue;
    const difference = firstDifference(theirs.row.shared, mine.row.shared);
    if (difference === undefined) continue;
    const field = `shared.${difference.field}`;
    problems.push({
      field,
      code: 'shared_field_mismatch',
      message: `${field}: line ${sibling.line} of the same claim has ${difference.expected}, this row ${difference.got}: rows of a claim must agree`,
      columns: columnsOf[field] ?? [],
    });
  }
  return problems;
}
