/** The results CSV's status columns, in order, before every source column (docs/import.md, "The results CSV"). */
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
  // What a fed-back row changed in a case the service already held, `;`-separated.
  'changed_fields',
  // What the tool changed in what it sent, the row still sent: a card number masked (docs/import.md, "Card numbers").
  'warnings',
] as const;

/**
 * The status columns of results files written before `warnings`, and before `changed_fields`:
 * they still read back. Newest first.
 */
export const legacyStatusLayouts: readonly (readonly string[])[] = [
  statusColumns.slice(0, -1),
  statusColumns.slice(0, -2),
];

export type StatusColumn = (typeof statusColumns)[number];

/**
 * `valid` and `would_not_file` are a dry run's: checked and nothing sent, and of those the rows
 * whose case the filing rules would not file (docs/import.md, "A dry run").
 */
export const outcomes = [
  'filed',
  'created',
  'not_filed',
  'invalid',
  'rejected',
  'failed',
  'valid',
  'would_not_file',
] as const;
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
  return statusColumnCount(header) > 0;
}

/** How many status columns a results header starts with: all of today's, a legacy file's, or 0 (not a results file). */
export function statusColumnCount(header: readonly string[]): number {
  const startsWith = (columns: readonly string[]) => columns.every((column, position) => header[position] === column);
  if (startsWith(statusColumns)) return statusColumns.length;
  return legacyStatusLayouts.find(startsWith)?.length ?? 0;
}

/**
 * A results file's status columns under names no source column can have, so that a source with a
 * `case_id` or `line` column of its own still reads back (see `statusCell`).
 */
export function renameStatusColumns(header: readonly string[]): readonly string[] {
  const count = statusColumnCount(header);
  return count === 0 ? header : header.map((name, position) => (position < count ? statusKey(name) : name));
}

const statusKey = (column: string) => `\u0000status.${column}`;

/** Whether a header (as renamed by `renameStatusColumns`) is a results file's. */
export function hasRenamedStatusColumns(header: readonly string[]): boolean {
  return header[0] === statusKey('line');
}

/** How many status columns a header renamed by `renameStatusColumns` has (0: not a results file). */
export function renamedStatusCount(header: readonly string[]): number {
  const prefix = statusKey('');
  let count = 0;
  while (header[count]?.startsWith(prefix) === true) count++;
  return count;
}

/** A status cell of a fed-back results row (read with `renameStatusColumns`). */
export function statusCell(cells: Readonly<Record<string, string>>, column: StatusColumn): string {
  return cells[statusKey(column)] ?? '';
}
