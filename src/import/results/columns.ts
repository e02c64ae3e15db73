/** The results CSV's status columns, in order, before every source column (architecture.md, "Contracts"). */
export const statusColumns = [
  'line',
  'claim_key',
  'claim_id',
  'case_id',
  'outcome',
  'error_code',
  'error_message',
  'error_field',
  'http_status',
  'attempts',
  'file_ids',
] as const;

export type StatusColumn = (typeof statusColumns)[number];

export const outcomes = ['filed', 'created', 'not_filed', 'invalid', 'rejected', 'failed', 'valid'] as const;
export type Outcome = (typeof outcomes)[number];

/**
 * Outcomes that mean the claim may exist in the service: created, or sent without an answer
 * (`failed`). Fed back in, such a claim is looked up before anything is sent.
 */
export const maybeCreatedOutcomes: readonly string[] = ['filed', 'created', 'not_filed', 'failed'];

/** Outcomes that count as ok for the exit code (0 when every row has one). */
export const okOutcomes: readonly string[] = ['filed', 'created', 'valid'];

/**
 * Whether a CSV is one of our results files fed back in (fixed by staff): it starts with the
 * status columns. Its source columns are the ones after them.
 */
export function isResultsHeader(header: readonly string[]): boolean {
  return statusColumns.every((column, position) => header[position] === column);
}

/**
 * A results file's status columns under names no source column can have, so that a source with a
 * `case_id` or `line` column of its own still reads back (see `statusCell`).
 */
export function renameStatusColumns(header: readonly string[]): readonly string[] {
  if (!isResultsHeader(header)) return header;
  return header.map((name, position) => (position < statusColumns.length ? statusKey(name) : name));
}

const statusKey = (column: string) => `\u0000status.${column}`;

/** Whether a header (as renamed by `renameStatusColumns`) is a results file's. */
export function hasRenamedStatusColumns(header: readonly string[]): boolean {
  return header[0] === statusKey('line');
}

/** A status cell of a fed-back results row (read with `renameStatusColumns`). */
export function statusCell(cells: Readonly<Record<string, string>>, column: StatusColumn): string {
  return cells[statusKey(column)] ?? '';
}
