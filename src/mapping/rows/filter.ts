import type { RowsSettings } from './schema.js';

/**
 * `rows.only` (docs/mappings.md, "Rows not for import, and the same dispute twice"): whether a row
 * is one to import, read from its cells by index. A cell is compared trimmed and without regard to
 * case: `RECD`, ` recd` and `Recd` are one code as banks write it, and a row the filter leaves out
 * is reported, never sent, so a lenient match loses nothing a strict one would keep.
 */

/** Why a row is not imported: the results' error_code and error_message of a `skipped` row. */
export interface SkipReason {
  code: 'row_skipped';
  message: string;
}

export type RowFilter = (raw: readonly string[]) => SkipReason | undefined;

interface FilterMapping {
  readonly rows?: Pick<RowsSettings, 'only'> | undefined;
}

const filters = new WeakMap<FilterMapping, WeakMap<readonly string[], RowFilter | undefined>>();

/**
 * The mapping's filter for records with this header, made once per (mapping, header); undefined
 * when it has none. A column the header lacks (an absent optional column) reads as blank cells.
 */
export function rowFilterFor(mapping: FilterMapping, header: readonly string[]): RowFilter | undefined {
  const only = mapping.rows?.only;
  if (only === undefined) return undefined;
  let byHeader = filters.get(mapping);
  if (byHeader === undefined) {
    byHeader = new WeakMap();
    filters.set(mapping, byHeader);
  }
  if (byHeader.has(header)) return byHeader.get(header);
  const filter = buildFilter(only, header);
  byHeader.set(header, filter);
  return filter;
}

function buildFilter(only: Readonly<Record<string, readonly string[]>>, header: readonly string[]): RowFilter {
  const columnIndex = new Map(header.map((column, index) => [column, index]));
  const rules = Object.entries(only).map(([column, values]) => ({
    column,
    index: columnIndex.get(column),
    allowed: new Set(values.map(comparable)),
    expected: values.map(quoted).join(', '),
  }));
  return (raw) => {
    for (const rule of rules) {
      const cell = rule.index === undefined ? '' : (raw[rule.index] ?? '');
      if (rule.allowed.has(comparable(cell))) continue;
      const got = cell.trim() === '' ? 'is blank' : `is ${quoted(cell.trim())}`;
      return {
        code: 'row_skipped',
        message: `rows.only: ${quoted(rule.column)} ${got}, expected one of ${rule.expected}`,
      };
    }
    return undefined;
  };
}

/** A cell as the filter compares it: trimmed, in one case. */
function comparable(value: string): string {
  return value.trim().toUpperCase();
}

/** Names and values as the message quotes them: JSON strings, a long one cut. */
function quoted(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}
