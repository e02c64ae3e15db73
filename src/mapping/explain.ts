import type { FieldStepName, FieldValue } from './evaluate-field.js';
import { maskCells } from './card-number-columns.js';
import type { FieldSpec } from './field-spec.js';
import { claimKeyValues, evidenceOf, mapRow, type FieldError, type MappedRow } from './map-row.js';
import type { Mapping } from './schema.js';
import type { TransformResult } from './transforms/index.js';

/**
 * `mapping explain`: one row through a mapping, field by field and step by step. The steps are
 * the ones mapRow itself runs (its `onField` trace), so what is shown is what the import does;
 * nothing here evaluates a cell a second time.
 */

export type FieldSource = { column: string } | { template: string } | { constant: string | number | boolean };

export interface ExplainedStep {
  step: FieldStepName;
  /** The step's settings from the mapping, e.g. `"/" index 1`, `upper`, `in dispute.currency, decimal "."`. */
  detail?: string;
  /** What the step gave, or the failure that ended the field. */
  result: TransformResult<FieldValue>;
}

export interface ExplainedField {
  /** Where in the mapping: `shared.card.last4`, `case.dispute.amount`, `claim.id`, `custom_fields.ref`. */
  field: string;
  source: FieldSource;
  steps: ExplainedStep[];
  /** The final value (undefined: a blank, optional cell leaves the field out), or the field error. */
  result: TransformResult<FieldValue>;
}

export interface RowExplanation {
  ok: boolean;
  claimKey: { columns: string[]; values: string[] };
  /** In mapRow's order: shared and case targets (amounts last), then claim.id, then custom fields. */
  fields: ExplainedField[];
  /** The evidence paths the row names, even when a field error stops the row. */
  evidence: MappedRow['evidence'];
  /** mapRow's own errors: one per failed field, plus a blank claim key. */
  errors: FieldError[];
  /** The row as mapRow maps it, when it maps. */
  row: MappedRow | undefined;
}

export function explainRow(unmasked: Readonly<Record<string, string>>, mapping: Mapping): RowExplanation {
  // The row as the import maps it, and no full card number printed.
  const cells = maskCells(unmasked, mapping);
  const fields: ExplainedField[] = [];
  const mapped = mapRow(cells, mapping, {
    onField: ({ field, spec, steps, result }) => {
      fields.push({
        field,
        source: sourceOf(spec),
        steps: steps.map(({ step, result: stepResult }) => withDetail(step, spec, stepResult)),
        result,
      });
    },
  });
  return {
    ok: mapped.ok,
    claimKey: { columns: [...mapping.claim.key], values: claimKeyValues(cells, mapping) },
    fields,
    evidence: evidenceOf(cells, mapping),
    errors: mapped.ok ? [] : mapped.errors,
    row: mapped.ok ? mapped.row : undefined,
  };
}

export function sourceOf(spec: FieldSpec): FieldSource {
  if (spec.column !== undefined) return { column: spec.column };
  if (spec.template !== undefined) return { template: spec.template };
  return { constant: spec.constant ?? '' };
}

function withDetail(step: FieldStepName, spec: FieldSpec, result: TransformResult<FieldValue>): ExplainedStep {
  const detail = detailOf(step, spec);
  return detail === undefined ? { step, result } : { step, detail, result };
}

/** The mapping settings a step ran with; the source, trim, default and required need none. */
function detailOf(step: FieldStepName, spec: FieldSpec): string | undefined {
  const quote = (text: string) => JSON.stringify(text);
  switch (step) {
    case 'split':
      return spec.split && `${quote(spec.split.separator)} index ${spec.split.index}`;
    case 'case':
      return spec.case;
    case 'enum': {
      const count = Object.keys(spec.enum ?? {}).length;
      return `${count} value${count === 1 ? '' : 's'}${spec.enum_case_sensitive ? '' : ', ignoring case'}`;
    }
    case 'date':
      return spec.date && `${quote(spec.date.format)} in ${spec.date.time_zone}`;
    case 'amount': {
      if (spec.amount === undefined) return undefined;
      // A currency_field's value is shown by that field, evaluated before any amount.
      const currency = spec.amount.currency ?? spec.amount.currency_field ?? '';
      const grouping = spec.amount.group_separator === '' ? '' : `, group ${quote(spec.amount.group_separator)}`;
      // What a negative becomes, and where the sign is read, shown beside the value they give.
      const negative = spec.amount.negative === 'magnitude' ? ', negative as magnitude' : '';
      const sign = spec.amount.sign_column === undefined ? '' : `, sign from ${quote(spec.amount.sign_column.column)}`;
      const implied = spec.amount.implied_decimals;
      const decimals =
        implied === undefined
          ? `decimal ${quote(spec.amount.decimal_separator ?? '.')}`
          : `implied ${implied} decimal${implied === 1 ? '' : 's'}`;
      return `in ${currency}, ${decimals}${grouping}${negative}${sign}`;
    }
    default:
      return undefined;
  }
}
