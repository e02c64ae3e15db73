import type { CsvRowError } from '../../csv/errors.js';
import { describeSlices, type SlicedRecord } from '../../csv/fixed-width/slice.js';
import type { FieldValue } from '../../mapping/evaluate-field.js';
import {
  sourceOf,
  type ExplainedField,
  type ExplainedStep,
  type FieldSource,
  type RowExplanation,
} from '../../mapping/explain.js';
import type { Mapping } from '../../mapping/schema.js';
import type { TransformResult } from '../../mapping/transforms/index.js';

/** What `mapping lint` and `mapping explain` print: text for a person, one JSON document for scripts. */

/** Which files an explanation is about, and where in the input. */
export interface ExplainedRecord {
  mapping: string;
  input: string;
  line: number;
  /** A workbook input: the sheet asked for, or undefined for its first. */
  workbook?: { sheet?: string | undefined } | undefined;
  /** A fixed-width input: the record cut by the layout, field by field. */
  fixedWidth?: SlicedRecord | undefined;
}

/** Step labels line up within a field; a long one (an amount's settings) only widens its own field. */
const minimumLabelWidth = 20;

export function formatLintSummary(file: string, mapping: Mapping): string {
  const dialect = mapping.csv;
  const claimId =
    mapping.claim.id === undefined ? 'derived from the key' : `from ${describeSource(sourceOf(mapping.claim.id))}`;
  const counts = [
    `${Object.keys(mapping.shared).length} shared`,
    `${Object.keys(mapping.case).length} case`,
    `${Object.keys(mapping.custom_fields).length} custom`,
    `${mapping.evidence.length} evidence column${mapping.evidence.length === 1 ? '' : 's'}`,
  ];
  return [
    `${file}: ok`,
    `  description  ${mapping.description?.replace(/\s+/g, ' ').trim() ?? '(none)'}`,
    `  csv          delimiter ${character(dialect.delimiter)}, quote ${character(dialect.quote)}, ` +
      `${dialect.encoding}, ${dialect.header ? 'header line' : 'no header line'}${dialect.trim ? ', cells trimmed' : ''}`,
    // A workbook has no delimiter, quote or encoding; its typed dates read in the mapping's date formats.
    `  workbook     an .xlsx input reads its sheet's cells: the csv section's delimiter, quote and ` +
      `encoding do not apply${dialect.header ? '' : ' (its first row is the header whatever the csv section says)'}`,
    ...fixedWidthNote(mapping),
    `  claim        key ${mapping.claim.key.join(' + ')}; id ${claimId}${idPrefixNote(mapping)}`,
    `  fields       ${counts.join(', ')}`,
    `  file_mode    ${mapping.file_mode}`,
    `  card numbers ${cardNumbersNote(mapping)}`,
    ...optionalColumnsNote(mapping),
    '',
  ].join('\n');
}

/** A fixed-width layout's record types and the controls checked: what a reviewer compares with the published layout. */
function fixedWidthNote(mapping: Mapping): string[] {
  const layout = mapping.fixed_width;
  const controls = mapping.controls;
  const checked = [
    controls?.record_count === undefined
      ? undefined
      : `record count (${controls.record_count.counts.replace('_', ' ')})`,
    controls?.amount_total === undefined ? undefined : `amount total of ${controls.amount_total.sums}`,
  ].filter((each) => each !== undefined);
  const controlLine =
    checked.length === 0
      ? []
      : [`  controls     ${checked.join(', ')}, checked block by block before anything is staged`];
  if (layout === undefined) return controlLine;
  const types = Object.entries(layout.records).map(
    ([type, record]) => `${JSON.stringify(type)} ${record.role} (${Object.keys(record.fields).length} fields)`,
  );
  return [
    `  fixed width  record type at ${layout.record_type.join('–')} (positions from ${layout.positions_from}): ${types.join(', ')}; ` +
      `${layout.encoding}; the csv section is the results file's`,
    ...controlLine,
  ];
}

/** Masking is on for every column but those the mapping names: a reviewer sees the exceptions here. */
function cardNumbersNote(mapping: Mapping): string {
  const kept = mapping.not_card_numbers ?? [];
  if (kept.length === 0) return 'masked in every column';
  return `masked in every column but ${kept.map((column) => JSON.stringify(column)).join(', ')} (not_card_numbers: kept as read)`;
}

/** Columns a file may lack: a reviewer sees which, since their fields are then left out. */
function optionalColumnsNote(mapping: Mapping): string[] {
  const optional = mapping.optional_columns ?? [];
  if (optional.length === 0) return [];
  return [
    `  optional     ${optional.map((column) => JSON.stringify(column)).join(', ')} may be absent (read as blank cells)`,
  ];
}

/** The prefix changes every id the mapping makes, so the summary says so where the ids are. */
function idPrefixNote(mapping: Mapping): string {
  const prefix = mapping.claim.id_prefix;
  return prefix === undefined ? '' : `; id_prefix ${JSON.stringify(prefix)} on every claim and case id`;
}

export function formatExplanation(record: ExplainedRecord, explanation: RowExplanation): string {
  const keyCells = explanation.claimKey.columns.map(
    (column, position) => `${column} ${JSON.stringify(explanation.claimKey.values[position] ?? '')}`,
  );
  const sheet =
    record.workbook?.sheet === undefined ? 'the first sheet' : `sheet ${JSON.stringify(record.workbook.sheet)}`;
  const workbook =
    record.workbook === undefined
      ? []
      : [`${sheet} of a workbook: the mapping's csv section (delimiter, quote, encoding) does not apply`];
  const lines = [
    `${record.input}:${record.line} through ${record.mapping}`,
    ...workbook,
    ...(record.fixedWidth === undefined ? [] : [...describeSlices(record.fixedWidth), '']),
    `claim key: ${keyCells.join(', ')}`,
    '',
  ];
  for (const field of explanation.fields) lines.push(...formatField(field));
  lines.push('evidence');
  if (explanation.evidence.length === 0) lines.push('  (none)');
  for (const { path, category, column } of explanation.evidence)
    lines.push(`  ${path}  ${category} (column ${column})`);
  lines.push('');
  if (explanation.row !== undefined) {
    const claimId =
      explanation.row.claimId === undefined ? 'derived from the key' : JSON.stringify(explanation.row.claimId);
    lines.push(`result: maps (claim key ${explanation.row.claimKey}, claim id ${claimId})`);
  } else {
    lines.push(`result: ${explanation.errors.length} field error${explanation.errors.length === 1 ? '' : 's'}`);
    for (const error of explanation.errors) lines.push(`  ${error.field}: ${error.code}: ${error.message}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A fixed-width record that is no row (a header, a trailer, an ignored type): its fields, and why nothing is mapped. */
export function formatRecordOnly(record: ExplainedRecord, sliced: SlicedRecord): string {
  const why =
    sliced.role === undefined
      ? `result: fixed_width_record_type: a type fixed_width.records does not list; the import stops at this line`
      : `result: a ${sliced.role} record: read for its fields, never a row, so no field is mapped`;
  return [`${record.input}:${record.line} through ${record.mapping}`, ...describeSlices(sliced), '', why, ''].join(
    '\n',
  );
}

export function formatUnreadableRecord(record: ExplainedRecord, error: CsvRowError): string {
  return `${record.input}:${record.line}: the record cannot be read, so no field is mapped\nresult: ${error.code}: ${error.message}\n`;
}

/** The same as the text, for scripts. A field left out (blank, optional) has `"value": null`. */
export function explanationJson(record: ExplainedRecord, explanation: RowExplanation | undefined): string {
  return toJson({ ...record, ...(explanation ?? { ok: record.fixedWidth?.role !== undefined, row: null }) });
}

export function unreadableRecordJson(record: ExplainedRecord, error: CsvRowError): string {
  return toJson({ ...record, ok: false, csvError: error });
}

function toJson(document: object): string {
  return `${JSON.stringify(document, (_key, value: unknown) => (value === undefined ? null : value), 2)}\n`;
}

function formatField(field: ExplainedField): string[] {
  const labels = field.steps.map(stepLabel);
  const width = Math.max(minimumLabelWidth, ...labels.map((label) => label.length));
  return [
    `${field.field} from ${describeSource(field.source)}`,
    ...field.steps.map((step, position) => `  ${(labels[position] ?? '').padEnd(width)}  ${stepOutcome(step.result)}`),
    `  = ${finalOutcome(field.result)}`,
  ];
}

function stepLabel(step: ExplainedStep): string {
  // The column step gives the cell exactly as read, before any transform.
  const name = step.step === 'column' ? 'cell' : step.step;
  return step.detail === undefined ? name : `${name} ${step.detail}`;
}

function stepOutcome(result: TransformResult<FieldValue>): string {
  return result.ok ? formatValue(result.value) : `error ${result.code}`;
}

function finalOutcome(result: TransformResult<FieldValue>): string {
  if (!result.ok) return `error ${result.code}: ${result.message}`;
  return result.value === undefined ? 'blank: left out of the body' : formatValue(result.value);
}

/** A dialect character as a person would write it: ',' or '"' or '\t'. */
function character(text: string): string {
  return text === '\t' ? "'\\t'" : `'${text}'`;
}

function formatValue(value: FieldValue): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function describeSource(source: FieldSource): string {
  if ('column' in source) return `column ${JSON.stringify(source.column)}`;
  if ('template' in source) return `template ${JSON.stringify(source.template)}`;
  return `constant ${JSON.stringify(source.constant)}`;
}
