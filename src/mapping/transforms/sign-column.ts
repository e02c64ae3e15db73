import type { ColumnSign } from './amount.js';
import { fail, ok, quote, type TransformResult } from './result.js';

/** A field's `sign_column`: the column whose cell says whether the row's amount is negative. */
export interface SignColumnOptions {
  readonly column: string;
  /** Cells, trimmed and compared exactly, that make the amount negative (`-`, `D`). */
  readonly negative: readonly string[];
  /** Cells that leave it positive (`+`, `C`). */
  readonly positive: readonly string[];
}

/**
 * The sign a row's sign column gives its amount. A cell in neither list is a row error rather
 * than either sign: a debit read as a credit, or the other way round, would send a wrong claim.
 */
export function signOfColumn(cell: string, options: SignColumnOptions): TransformResult<ColumnSign> {
  const written = cell.trim();
  if (options.negative.includes(written)) return ok({ column: options.column, written, negative: true });
  if (options.positive.includes(written)) return ok({ column: options.column, written, negative: false });
  const listed = (values: readonly string[]) => values.map((value) => JSON.stringify(value)).join(', ');
  return fail(
    'amount_sign_unknown',
    `amount.sign_column: expected ${listed(options.negative)} (negative) or ${listed(options.positive)} (positive) ` +
      `in column ${JSON.stringify(options.column)}, got ${written === '' ? 'a blank cell' : quote(written)}`,
  );
}
