import type { FieldSpec } from './field-spec.js';

/**
 * What a mapping reads of a row, enumerated once: every field with its spec, and every column
 * with the fields that read it. The header check, `optional_columns`, the columns whose card
 * numbers can change what is sent, the results' `error_field` cells and the row mapping all take
 * their view of a mapping from here, so a setting that reads a column is added in one place.
 *
 * Typed by the shape it reads rather than the schema's output type: the schema itself checks
 * `optional_columns` against these columns.
 */
export interface MappingReads {
  readonly claim: { readonly key: readonly string[]; readonly id?: FieldSpec | undefined };
  readonly shared: Readonly<Partial<Record<string, FieldSpec>>>;
  readonly case: Readonly<Partial<Record<string, FieldSpec>>>;
  readonly custom_fields: Readonly<Record<string, FieldSpec>>;
  readonly evidence: readonly { readonly column: string }[];
  readonly report?: { readonly record_type?: { readonly column: string } | undefined } | undefined;
  readonly rows?: { readonly only?: Readonly<Record<string, readonly string[]>> | undefined } | undefined;
}

/** A field of the mapping by the name results use in `error_field`: `claim.id`, `shared.card.last4`, `custom_fields.ref`. */
export interface MappedField {
  readonly field: string;
  readonly section: 'claim' | 'shared' | 'case' | 'custom_fields';
  /** The target inside its section: `card.last4`, a custom field's name. */
  readonly target: string;
  readonly spec: FieldSpec;
}

/** The fields with a spec, in the mapping's order: the claim id, shared, case, custom fields. */
export function mappedFields(mapping: MappingReads): MappedField[] {
  const fields: MappedField[] = [];
  if (mapping.claim.id !== undefined)
    fields.push({ field: 'claim.id', section: 'claim', target: 'id', spec: mapping.claim.id });
  for (const section of ['shared', 'case'] as const)
    for (const [target, spec] of Object.entries(mapping[section]))
      if (spec !== undefined) fields.push({ field: `${section}.${target}`, section, target, spec });
  for (const [target, spec] of Object.entries(mapping.custom_fields))
    fields.push({ field: `custom_fields.${target}`, section: 'custom_fields', target, spec });
  return fields;
}

/**
 * One reading of one column: which field (or setting) reads it, and whether it reads the cell
 * whole. A field read through `last4` keeps only the last four digits, which masking keeps too.
 */
export interface ColumnReading {
  readonly column: string;
  /** `claim.key`, a field's name, `evidence.<column>`, `rows.only.<column>` or `report.record_type`. */
  readonly field: string;
  readonly whole: boolean;
}

/** Every reading of a column by the mapping, in the mapping's order. */
export function columnReadingsOf(mapping: MappingReads): ColumnReading[] {
  const readings: ColumnReading[] = mapping.claim.key.map((column) => ({ column, field: 'claim.key', whole: true }));
  for (const { field, spec } of mappedFields(mapping))
    for (const column of specColumns(spec)) readings.push({ column, field, whole: spec.last4 !== true });
  for (const { column } of mapping.evidence) readings.push({ column, field: `evidence.${column}`, whole: true });
  for (const column of Object.keys(mapping.rows?.only ?? {}))
    readings.push({ column, field: `rows.only.${column}`, whole: true });
  const typeColumn = mapping.report?.record_type?.column;
  if (typeColumn !== undefined) readings.push({ column: typeColumn, field: 'report.record_type', whole: true });
  return readings;
}

/** The columns the mapping reads, each with the fields that read it, in the mapping's order. */
export function columnsRead(mapping: MappingReads): Map<string, string[]> {
  const columns = new Map<string, string[]>();
  for (const { column, field } of columnReadingsOf(mapping)) {
    const fields = columns.get(column);
    if (fields === undefined) columns.set(column, [field]);
    else if (!fields.includes(field)) fields.push(field);
  }
  return columns;
}

/**
 * The source columns behind each field, by the names results use in `error_field`: what a
 * reviewer must edit to fix the field (the results workbook highlights that cell). A constant has
 * none.
 */
export function fieldColumns(mapping: MappingReads): Record<string, string[]> {
  const columns: Record<string, string[]> = {};
  for (const { column, field } of columnReadingsOf(mapping)) {
    const known = (columns[field] ??= []);
    if (!known.includes(column)) known.push(column);
  }
  return columns;
}

/** The columns one field reads: its column, or its template's placeholders; then an amount's sign column. */
export function specColumns(spec: FieldSpec): string[] {
  const sources =
    spec.column !== undefined
      ? [spec.column]
      : [...(spec.template ?? '').matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
  const sign = spec.amount?.sign_column?.column;
  return sign === undefined || sources.includes(sign) ? sources : [...sources, sign];
}
