/**
 * A record as dot-path columns: `{dispute: {reason}}` is `dispute.reason`. Arrays of scalars are
 * joined with `;` (a spreadsheet user reads them at a glance); arrays holding objects are JSON
 * text, since no column layout fits them. Nulls and empty objects give no column, so their cells
 * are empty.
 */
export type FlatRecord = Record<string, string>;

export function flatten(record: unknown, prefix = ''): FlatRecord {
  const flat: FlatRecord = {};
  if (!isPlainObject(record)) {
    if (prefix !== '' && record !== null && record !== undefined) flat[prefix] = cellText(record);
    return flat;
  }
  for (const [key, value] of Object.entries(record)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isPlainObject(value)) Object.assign(flat, flatten(value, path));
    else if (value !== null && value !== undefined) flat[path] = cellText(value);
  }
  return flat;
}

/** One value as the text of a cell. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) {
    return value.every((item) => !isPlainObject(item) && !Array.isArray(item))
      ? value.map(cellText).join(';')
      : JSON.stringify(value);
  }
  if (isPlainObject(value)) return JSON.stringify(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
