import { maskCardNumbers } from '../card-numbers/mask.js';
import { MappingError, notCardNumberLines, type MappingIssue } from './load.js';
import type { Mapping } from './schema.js';
import { columnReadingsOf } from './columns-read.js';

/**
 * A mapping's `not_card_numbers`: columns of the file whose numbers pass as card numbers but are
 * not (docs/mappings.md, "Columns that are not card numbers"). The import masks every other cell.
 * A name that is not a column of the file is the mapping's error, found before any row is read:
 * a misspelt name would otherwise opt out nothing and say nothing.
 */

/** `not_card_numbers[i]` entries that are not columns of the header, as the mapping's issues. */
export function notCardNumberIssues(mapping: Mapping, header: readonly string[]): MappingIssue[] {
  const columns = new Set(header);
  return (mapping.not_card_numbers ?? []).flatMap((column, index) =>
    columns.has(column)
      ? []
      : [
          {
            field: `not_card_numbers[${index}]`,
            line: notCardNumberLines.get(mapping.not_card_numbers ?? [])?.[index],
            message: `expected a column of the file, got ${JSON.stringify(column)} (the header has ${describeHeader(header)})`,
          },
        ],
  );
}

/** Throws the mapping's error, naming FILE:LINE and `not_card_numbers[i]`, when a name is not a column of the header. */
export function checkNotCardNumbers(file: string, mapping: Mapping, header: readonly string[]): void {
  const issues = notCardNumberIssues(mapping, header);
  if (issues.length > 0) throw new MappingError(file, issues);
}

/**
 * The header indexes whose cells the import leaves unmasked: every place of a `not_card_numbers`
 * column (a name the header lacks masks nothing less; checkNotCardNumbers refuses it first).
 */
export function cardNumberColumnsSkipped(mapping: Mapping, header: readonly string[]): ReadonlySet<number> {
  const names = new Set(mapping.not_card_numbers ?? []);
  const skipped = new Set<number>();
  if (names.size === 0) return skipped;
  header.forEach((column, index) => {
    if (names.has(column)) skipped.add(index);
  });
  return skipped;
}

/**
 * The header indexes whose masking can change what is sent: the columns a field reads whole (its
 * column or template), the claim key's and the evidence columns. A card number elsewhere (a column
 * no field reads, or one read through `last4`, whose last four digits masking keeps) is masked in
 * what is kept, and the row's mapping is the same: the import then maps it once, not twice.
 */
export function columnsSentWhole(mapping: Mapping, header: readonly string[]): number[] {
  const names = new Set(columnReadingsOf(mapping).flatMap(({ column, whole }) => (whole ? [column] : [])));
  return header.flatMap((column, index) => (names.has(column) ? [index] : []));
}

/**
 * A row's cells by column with every card number in them masked, first six and last four, but in
 * the mapping's `not_card_numbers` columns, kept as read: what the import does at its door
 * (docs/import.md, "Card numbers"), for what reads cells outside it (`mapping explain`, review).
 * Masking a masked cell changes nothing.
 */
export function maskCells(
  cells: Readonly<Record<string, string>>,
  mapping: Pick<Mapping, 'not_card_numbers'>,
): Record<string, string> {
  const kept = new Set(mapping.not_card_numbers ?? []);
  const masked: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [column, cell] of Object.entries(cells)) masked[column] = kept.has(column) ? cell : maskCardNumbers(cell);
  return masked;
}

function describeHeader(header: readonly string[]): string {
  const shown = header.slice(0, 12).map((column) => JSON.stringify(column));
  return header.length > shown.length
    ? `${shown.join(', ')} and ${header.length - shown.length} more`
    : shown.join(', ');
}
