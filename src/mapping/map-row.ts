import { evaluateField, type FieldStep, type FieldValue } from './evaluate-field.js';
import type { FieldSpec } from './field-spec.js';
import type { Mapping } from './schema.js';
import type { TransformResult } from './transforms/index.js';

/**
 * The map stage (architecture.md, "The pipeline"): one CSV row through a mapping, to the parts
 * of a new_claim it contributes, or to every field error it has (a row error, never a throw).
 */

export interface FieldError {
  /** Where in the mapping: `case.dispute.amount`, `shared.dispute.reason`, `claim.key`, `custom_fields.ref`. */
  field: string;
  code: string;
  message: string;
}

export interface MappedRow {
  /** The key columns' values: rows with equal keys form one claim, adjacent or not. */
  claimKey: string;
  /** The mapped claim id, or undefined to derive one from the key. */
  claimId: string | undefined;
  /** Claim-level fields as a nested new_claim fragment (`card`, `dispute`, ...). */
  shared: Record<string, unknown>;
  /** This row's case, nested (`dispute`, `merchant`, `transaction`, ...). */
  case: Record<string, unknown>;
  customFields: Record<string, string>;
  /** Evidence paths named by the row, relative to the evidence directory, with their category. */
  evidence: { path: string; category: string; column: string }[];
}

export type RowMapping = { ok: true; row: MappedRow } | { ok: false; errors: FieldError[] };

/** One evaluated field, as `mapping explain` shows it: its steps and what it gave. */
export interface FieldEvaluation {
  field: string;
  spec: FieldSpec;
  steps: FieldStep[];
  result: TransformResult<FieldValue>;
}

export interface MapRowOptions {
  /** Told about every field in evaluation order (targets, then claim.id, then custom fields). */
  onField?: (evaluation: FieldEvaluation) => void;
}

export function mapRow(cells: Readonly<Record<string, string>>, mapping: Mapping, options: MapRowOptions = {}): RowMapping {
  const errors: FieldError[] = [];
  const values = new Map<string, FieldValue>();
  const resolved = (target: string) => values.get(`case.${target}`) ?? values.get(`shared.${target}`);
  const evaluate = (field: string, spec: FieldSpec): TransformResult<FieldValue> => {
    if (options.onField === undefined) return evaluateField(spec, { cells, resolved });
    const steps: FieldStep[] = [];
    const result = evaluateField(spec, { cells, resolved, trace: (step) => steps.push(step) });
    options.onField({ field, spec, steps, result });
    return result;
  };
  const specs = evaluationOrder(mapping);
  for (const { field, spec } of specs) {
    const result = evaluate(field, spec);
    if (result.ok) values.set(field, result.value);
    else errors.push({ field, code: result.code, message: result.message });
  }

  const keyValues = claimKeyValues(cells, mapping);
  if (keyValues.some((value) => value === '')) {
    errors.push({ field: 'claim.key', code: 'required_missing', message: `claim key: expected values in ${mapping.claim.key.join(', ')}, got a blank` });
  }
  const claimId = mapping.claim.id === undefined ? { ok: true as const, value: undefined } : evaluate('claim.id', mapping.claim.id);
  if (!claimId.ok) errors.push({ field: 'claim.id', code: claimId.code, message: claimId.message });

  const customFields: Record<string, string> = {};
  for (const [name, spec] of Object.entries(mapping.custom_fields)) {
    const result = evaluate(`custom_fields.${name}`, spec);
    if (!result.ok) errors.push({ field: `custom_fields.${name}`, code: result.code, message: result.message });
    else if (result.value !== undefined) customFields[name] = String(result.value);
  }

  if (errors.length > 0 || !claimId.ok) return { ok: false, errors };
  return {
    ok: true,
    row: {
      claimKey: JSON.stringify(keyValues),
      claimId: claimId.value === undefined ? undefined : String(claimId.value),
      shared: nest(values, 'shared.'),
      case: nest(values, 'case.'),
      customFields,
      evidence: evidenceOf(cells, mapping),
    },
  };
}

/** The key columns' values, trimmed: rows with equal values form one claim. */
export function claimKeyValues(cells: Readonly<Record<string, string>>, mapping: Mapping): string[] {
  return mapping.claim.key.map((column) => (cells[column] ?? '').trim());
}

/** The order fields are evaluated in, worked out once per mapping (it is the same for every row). */
const orders = new WeakMap<Mapping, { field: string; spec: FieldSpec }[]>();
function evaluationOrder(mapping: Mapping): { field: string; spec: FieldSpec }[] {
  let order = orders.get(mapping);
  if (order === undefined) {
    // Amounts last: they may read the currency another field maps.
    order = [...sectionSpecs('shared', mapping.shared), ...sectionSpecs('case', mapping.case)].sort(
      (left, right) => Number(left.spec.type === 'amount') - Number(right.spec.type === 'amount'),
    );
    orders.set(mapping, order);
  }
  return order;
}

function sectionSpecs(section: 'shared' | 'case', specs: Partial<Record<string, FieldSpec>>) {
  return Object.entries(specs).flatMap(([target, spec]) => (spec ? [{ field: `${section}.${target}`, spec }] : []));
}

/** `{"shared.card.last4": "4242"}` → `{card: {last4: "4242"}}`; fields left out stay out. */
function nest(values: Map<string, FieldValue>, prefix: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [field, value] of values) {
    if (!field.startsWith(prefix) || value === undefined) continue;
    const path = field.slice(prefix.length).split('.');
    let node = root;
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[path.at(-1) ?? ''] = value;
  }
  return root;
}

export function evidenceOf(cells: Readonly<Record<string, string>>, mapping: Mapping): MappedRow['evidence'] {
  return mapping.evidence.flatMap(({ column, category, separator }) => {
    const cell = (cells[column] ?? '').trim();
    if (cell === '') return [];
    const paths = separator === undefined ? [cell] : cell.split(separator).map((path) => path.trim()).filter((path) => path !== '');
    return paths.map((path) => ({ path, category, column }));
  });
}
