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
 * whose case the filing rules would not file (docs/import.md, "A dry run"). `skipped` and
 * `duplicate` are rows set aside, nothing of them sent: not a row to import (the mapping's
 * `rows.only`), or the same dispute as an earlier line (docs/import.md, "Duplicates").
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
  'skipped',
  'duplicate',
] as const;
export type Outcome = (typeof outcomes)[number];

/**
 * Outcomes that mean the claim may exist in the service: created, or sent without an answer
 * (`failed`). Fed back in, such a claim is looked up before anything is sent.
 */
export const maybeCreatedOutcomes: readonly string[] = ['filed', 'created', 'not_filed', 'failed'];

/**
 * Rows set aside at staging: their error_code says why (`row_skipped`, `duplicate_row`), and they
 * are ok all the same. A nightly lifecycle report must not end in exit 1 for the rows it was told
 * to skip, nor an export that repeats a dispute for the lines after the first: that dispute's own
 * outcome is on its first line, which counts for the exit code by itself.
 */
export const setAsideOutcomes: readonly string[] = ['skipped', 'duplicate'];

/** Outcomes that count as ok for the exit code (0 when every row has one, without an error code but for those set aside). */
export const okOutcomes: readonly string[] = ['filed', 'created', 'valid', ...setAsideOutcomes];

/** Whether a results line is ok: an ok outcome with no error code (`created` with `not_finished` is not), or a row set aside. */
export function isOkResult(outcome: string, errorCode: string): boolean {
  return setAsideOutcomes.includes(outcome) || (okOutcomes.includes(outcome) && errorCode === '');
}

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
