import type { FixedWidthLayout, RecordLayout } from './layout.js';

/** The detail record type's code and layout: the rows. The schema makes sure there is exactly one. */
export function detailRecord(layout: FixedWidthLayout): { type: string; record: RecordLayout } {
  const entry = Object.entries(layout.records).find(([, record]) => record.role === 'detail');
  if (entry === undefined) throw new Error('fixed_width: expected a record type with role detail, got none');
  return { type: entry[0], record: entry[1] };
}

export function recordOfRole(
  layout: FixedWidthLayout,
  role: 'header' | 'trailer',
): { type: string; record: RecordLayout } | undefined {
  const entry = Object.entries(layout.records).find(([, record]) => record.role === role);
  return entry === undefined ? undefined : { type: entry[0], record: entry[1] };
}

/** A row's columns, in order: the detail record's fields, the header fields its block carries, the blank columns. */
export function fixedWidthColumns(layout: FixedWidthLayout): string[] {
  return [
    ...Object.keys(detailRecord(layout).record.fields),
    ...(recordOfRole(layout, 'header')?.record.carry ?? []),
    ...(layout.blank_columns ?? []),
  ];
}
