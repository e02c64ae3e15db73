import type { FieldSpec } from './field-spec.js';
import { filterColumns } from './rows/filter.js';
import type { Mapping } from './schema.js';

/**
 * The source columns behind each field of a mapping, by the names results use in `error_field`
 * (`case.transaction.arn`, `shared.card.last4`, `custom_fields.ref`, `claim.key`, `claim.id`,
 * `evidence.<column>`, `rows.only.<column>`): what a reviewer must edit to fix the field (the results workbook highlights
 * that cell). A constant has none.
 */
export function fieldColumns(mapping: Mapping): Record<string, string[]> {
  const columns: Record<string, string[]> = { 'claim.key': [...mapping.claim.key] };
  const add = (field: string, spec: FieldSpec | undefined) => {
    const found = spec === undefined ? [] : specColumns(spec);
    if (found.length > 0) columns[field] = found;
  };
  add('claim.id', mapping.claim.id);
  for (const [target, spec] of Object.entries(mapping.shared)) add(`shared.${target}`, spec);
  for (const [target, spec] of Object.entries(mapping.case)) add(`case.${target}`, spec);
  for (const [name, spec] of Object.entries(mapping.custom_fields)) add(`custom_fields.${name}`, spec);
  for (const { column } of mapping.evidence) columns[`evidence.${column}`] = [column];
  return { ...columns, ...filterColumns(mapping) };
}

/** The columns one field reads: its column, or its template's placeholders. */
export function specColumns(spec: FieldSpec): string[] {
  if (spec.column !== undefined) return [spec.column];
  return [...(spec.template ?? '').matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}
