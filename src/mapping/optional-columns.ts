import { columnReadingsOf, type MappingReads } from './columns-read.js';

/**
 * A mapping's `optional_columns` (docs/mappings.md, "When the header does not fit"): columns it
 * reads that a file may lack. An absent one reads as blank cells, everywhere the mapping reads it
 * (a field's column, a template's placeholder, an evidence column); every other column it reads
 * must be in the header.
 */

/** What the schema checks the list against: the claim key, and every column the mapping reads. */
interface OptionalColumnsOf extends MappingReads {
  readonly optional_columns?: readonly string[] | undefined;
  readonly rows?: { readonly only?: Readonly<Record<string, readonly string[]>> | undefined } | undefined;
}

/**
 * A name that is a claim key column (a row without its key belongs to no claim) or that the
 * mapping does not read (a misspelt name would make nothing optional and say nothing), as schema
 * issues.
 */
export function optionalColumnIssues(mapping: OptionalColumnsOf): { message: string; path: (string | number)[] }[] {
  const key = new Set(mapping.claim.key);
  const read = optionalCandidates(mapping);
  return (mapping.optional_columns ?? []).flatMap((column, index) => {
    const path = ['optional_columns', index];
    if (key.has(column))
      return [{ path, message: `expected a column other than the claim key's, got ${JSON.stringify(column)}` }];
    if (!read.has(column))
      return [
        { path, message: `expected a column the mapping reads, got ${JSON.stringify(column)}, which it does not` },
      ];
    return [];
  });
}

/** The header with the `optional_columns` it lacks after it: read by index, their cells past a record's end are blank. */
export function withAbsentOptionalColumns(
  mapping: Pick<OptionalColumnsOf, 'optional_columns'>,
  header: readonly string[],
): readonly string[] {
  const optional = mapping.optional_columns ?? [];
  if (optional.length === 0) return header;
  const present = new Set(header);
  const absent = optional.filter((column) => !present.has(column));
  return absent.length === 0 ? header : [...header, ...absent];
}

/** A row's cells with the `optional_columns` it lacks as blank cells. */
export function withBlankOptionalCells(
  mapping: Pick<OptionalColumnsOf, 'optional_columns'>,
  cells: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const optional = mapping.optional_columns;
  if (optional === undefined || optional.every((column) => column in cells)) return cells;
  const filled: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const column of optional) filled[column] = '';
  return Object.assign(filled, cells);
}

/**
 * The columns a field or an evidence entry reads: the ones that can be absent. The claim key's
 * cannot (a row without its key belongs to no claim), nor the report's record type column (the
 * reader finds each record's type in it).
 */
function optionalCandidates(mapping: OptionalColumnsOf): Set<string> {
  const fixed = new Set(['claim.key', 'report.record_type']);
  return new Set(columnReadingsOf(mapping).flatMap(({ column, field }) => (fixed.has(field) ? [] : [column])));
}
