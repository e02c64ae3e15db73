import { derivedClaimId } from '../job-files/claims/ids.js';
import { mapCells } from '../mapping/compile/index.js';
import type { Mapping } from '../mapping/schema.js';
import { fieldColumns } from '../mapping/columns-read.js';
import type { CellProblem } from './check-row.js';
import type { RowEntry } from './job-types.js';

/**
 * A row the service refused because the claim under its id is another dispute (`claim_key_taken`)
 * is fixed by a key of its own: while its cells still map to the claim id it was refused on, it is
 * refused again when fed back, whatever else was edited. The page says so on the key cells instead
 * of "ready to feed back" (a row left behind when the other rows of its claim were given a new key
 * shows it too).
 */
export function keyStillTaken(row: RowEntry, cells: Readonly<Record<string, string>>, mapping: Mapping): CellProblem[] {
  if (row.errorCode !== 'claim_key_taken' || row.claimId === '') return [];
  const mapped = mapCells(cells, mapping);
  // A row that does not map shows its own problems; its claim id is not known.
  if (!mapped.ok) return [];
  // As staging derives it (src/staging/prepare-row.ts).
  const claimId = mapped.row.claimId ?? derivedClaimId(mapped.row.claimKey, mapping.claim.id_prefix);
  if (claimId !== row.claimId) return [];
  const columnsOf = fieldColumns(mapping);
  const columns = [...new Set([...(columnsOf['claim.key'] ?? []), ...(columnsOf['claim.id'] ?? [])])];
  return [
    {
      field: 'claim.key',
      code: 'claim_key_taken',
      message:
        `claim id: expected an id other than ${row.claimId} (the service holds another dispute under it), got ` +
        `${claimId} again from these cells: give this row, and the other rows of its claim, a key of their ` +
        `own (${columns.join(', ')})`,
      columns,
    },
  ];
}
