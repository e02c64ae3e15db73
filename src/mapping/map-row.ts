import { evaluateField, type FieldStep, type FieldValue } from './evaluate-field.js';
import type { FieldSpec } from './field-spec.js';
import { mappedFields, specColumns } from './columns-read.js';
import { withBlankOptionalCells } from './optional-columns.js';
import type { Mapping } from './schema.js';
import {
  arnProblem,
  identifierDamage,
  isIdentifierTarget,
  serialDateHint,
  spreadsheetTimeHint,
} from './spreadsheet-damage.js';
import type { TransformResult } from './transforms/index.js';

/**
 * The map stage, between reading the input and staging it: one CSV row through a mapping, to the
 * parts of a new_claim it contributes, or to every field error it has (a row error, never a throw).
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

export function mapRow(
  rowCells: Readonly<Record<string, string>>,
  mapping: Mapping,
  options: MapRowOptions = {},
): RowMapping {
  // An absent optional column reads as blank cells (optional-columns.ts).
  const cells = withBlankOptionalCells(mapping, rowCells);
  const plan = planOf(mapping);
  const errors: FieldError[] = [];
  // values[i] is what plan.fields[i] gave; undefined for a blank optional cell, a failed field, or
  // a field not evaluated yet (an amount's currency_field sees only the fields before it).
  const values = new Array<FieldValue>(plan.fields.length);
  const valueOf = (field: string) => {
    const index = plan.indexOf.get(field);
    return index === undefined ? undefined : values[index];
  };
  const resolved = (target: string) => valueOf(`case.${target}`) ?? valueOf(`shared.${target}`);
  const evaluate = (field: string, spec: FieldSpec) =>
    evaluateMappedField(field, spec, mapping, cells, resolved, options.onField);
  for (const [index, { field, spec }] of plan.fields.entries()) {
    const result = evaluate(field, spec);
    if (result.ok) values[index] = result.value;
    else errors.push({ field, code: result.code, message: result.message });
  }
  const arn = valueOf('case.transaction.arn');
  const network = valueOf('shared.card.network');
  const arnError =
    typeof arn === 'string' ? arnProblem(arn, typeof network === 'string' ? network : undefined) : undefined;
  if (arnError !== undefined) errors.push({ field: 'case.transaction.arn', ...arnError });

  const keyValues = claimKeyValues(cells, mapping);
  if (keyValues.some((value) => value === '')) errors.push(claimKeyBlankError(mapping));
  for (const column of mapping.claim.key) {
    const damage = identifierDamage('claim.key', column, cells[column] ?? '');
    if (damage !== undefined) errors.push({ field: 'claim.key', ...damage });
  }
  const claimId =
    mapping.claim.id === undefined ? { ok: true as const, value: undefined } : evaluate('claim.id', mapping.claim.id);
  if (!claimId.ok) errors.push({ field: 'claim.id', code: claimId.code, message: claimId.message });

  const customFields: Record<string, string> = {};
  for (const { name, field, spec } of plan.customFields) {
    const result = evaluate(field, spec);
    if (!result.ok) errors.push({ field, code: result.code, message: result.message });
    else if (result.value !== undefined) customFields[name] = String(result.value);
  }

  if (errors.length > 0 || !claimId.ok) return { ok: false, errors };
  return {
    ok: true,
    row: {
      claimKey: JSON.stringify(keyValues),
      claimId: claimId.value === undefined ? undefined : String(claimId.value),
      shared: nest(plan, values, 'shared'),
      case: nest(plan, values, 'case'),
      customFields,
      evidence: evidenceOf(cells, mapping),
    },
  };
}

/**
 * One field of one row as mapRow evaluates it: spreadsheet damage, the field's steps, a date's
 * serial-number hint, the id prefix. Exported for the compiled mapping (src/mapping/compile/),
 * which works out with it the result of a field that reads nothing of the row.
 */
export function evaluateMappedField(
  field: string,
  spec: FieldSpec,
  mapping: Mapping,
  cells: Readonly<Record<string, string>>,
  resolved: (target: string) => FieldValue,
  onField?: (evaluation: FieldEvaluation) => void,
): TransformResult<FieldValue> {
  // What a spreadsheet did to an identifier is refused before it is read.
  const damaged = damageIn(field, spec, cells);
  if (damaged !== undefined) {
    onField?.({ field, spec, steps: [], result: damaged });
    return damaged;
  }
  const prefix = idPrefixOf(field, mapping);
  if (onField === undefined)
    return withIdPrefix(withSerialDateHint(evaluateField(spec, { cells, resolved }), spec, cells), prefix);
  const steps: FieldStep[] = [];
  const trace = (step: FieldStep) => steps.push(step);
  const result = withIdPrefix(
    withSerialDateHint(evaluateField(spec, { cells, resolved, trace }), spec, cells),
    prefix,
    trace,
  );
  onField({ field, spec, steps, result });
  return result;
}

/** The error of a row whose claim key has a blank cell. */
export function claimKeyBlankError(mapping: Mapping): FieldError {
  return {
    field: 'claim.key',
    code: 'required_missing',
    message: `claim key: expected values in ${mapping.claim.key.join(', ')}, got a blank`,
  };
}

/** A spreadsheet's damage to the cells an identifier field reads (its column, or its template's columns). */
function damageIn(
  field: string,
  spec: FieldSpec,
  cells: Readonly<Record<string, string>>,
): TransformResult<FieldValue> | undefined {
  if (!isIdentifierTarget(field) || spec.type !== 'string') return undefined;
  for (const column of specColumns(spec)) {
    const damage = identifierDamage(field, column, cells[column] ?? '', spec.last4 === true, spec.split !== undefined);
    if (damage !== undefined) return { ok: false, ...damage };
  }
  return undefined;
}

/** The mapped ids `claim.id_prefix` applies to; a derived claim id takes it in derivedClaimId, a derived case id from its claim's. */
const prefixedIdFields: ReadonlySet<string> = new Set(['claim.id', 'case.case_id']);

export function idPrefixOf(field: string, mapping: Mapping): string | undefined {
  return prefixedIdFields.has(field) ? mapping.claim.id_prefix : undefined;
}

/**
 * `PREFIX-id`: the mapping's prefix on a mapped claim or case id, here rather than at staging so
 * that everything after mapRow (staging, `mapping explain`) sees the id that is sent. A blank
 * optional id stays blank: the claim id is then derived, with the prefix.
 */
function withIdPrefix(
  result: TransformResult<FieldValue>,
  prefix: string | undefined,
  trace?: (step: FieldStep) => void,
): TransformResult<FieldValue> {
  if (prefix === undefined || !result.ok || result.value === undefined) return result;
  const prefixed = { ok: true as const, value: prefixedId(prefix, result.value) };
  trace?.({ step: 'id_prefix', result: prefixed });
  return prefixed;
}

export function prefixedId(prefix: string, id: string | number | boolean): string {
  return `${prefix}-${String(id)}`;
}

/** A date that did not read, whose cell is a spreadsheet's serial number or time of day: the error says so. */
export function withSerialDateHint(
  result: TransformResult<FieldValue>,
  spec: FieldSpec,
  cells: Readonly<Record<string, string>>,
): TransformResult<FieldValue> {
  if (result.ok || spec.type !== 'date' || spec.column === undefined) return result;
  const cell = cells[spec.column] ?? '';
  const hint = serialDateHint(cell) ?? spreadsheetTimeHint(cell);
  return hint === undefined ? result : { ...result, message: `${result.message}; ${hint}` };
}

/** The key columns' values, trimmed: rows with equal values form one claim. */
export function claimKeyValues(cells: Readonly<Record<string, string>>, mapping: Mapping): string[] {
  return mapping.claim.key.map((column) => (cells[column] ?? '').trim());
}

/** One target field of the mapping, with its place in the body worked out in advance. */
export interface PlannedField {
  /** `shared.card.last4`, `case.transaction.amount`. */
  field: string;
  section: 'shared' | 'case';
  /** The field's path in its section's fragment: `['card', 'last4']`. */
  path: readonly string[];
  spec: FieldSpec;
}

/**
 * What mapRow needs of a mapping that is the same for every row, worked out once per mapping:
 * staging maps every row of a file of millions through one mapping, and sorting the fields and
 * splitting their names again for each row showed in its profile.
 */
export interface MappingPlan {
  /** In evaluation order: amounts last, as they may read the currency another field maps. */
  fields: readonly PlannedField[];
  /** `case.dispute.currency` → its place in `fields` (read by an amount's currency_field). */
  indexOf: ReadonlyMap<string, number>;
  customFields: readonly { name: string; field: string; spec: FieldSpec }[];
}

const plans = new WeakMap<Mapping, MappingPlan>();
export function planOf(mapping: Mapping): MappingPlan {
  let plan = plans.get(mapping);
  if (plan === undefined) {
    const mapped = mappedFields(mapping);
    const fields: PlannedField[] = mapped
      .flatMap(({ field, section, target, spec }) =>
        section === 'shared' || section === 'case' ? [{ field, section, path: target.split('.'), spec }] : [],
      )
      .sort((left, right) => Number(left.spec.type === 'amount') - Number(right.spec.type === 'amount'));
    plan = {
      fields,
      indexOf: new Map(fields.map(({ field }, index) => [field, index])),
      customFields: mapped.flatMap(({ field, section, target, spec }) =>
        section === 'custom_fields' ? [{ name: target, field, spec }] : [],
      ),
    };
    plans.set(mapping, plan);
  }
  return plan;
}

/**
 * One section's values as a nested fragment: `shared.card.last4 = "4242"` → `{card: {last4: "4242"}}`.
 * Fields left out (undefined) stay out. Keys come in evaluation order, so equal rows give equal JSON.
 */
function nest(plan: MappingPlan, values: readonly FieldValue[], section: 'shared' | 'case'): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [index, field] of plan.fields.entries()) {
    const value = values[index];
    if (field.section !== section || value === undefined) continue;
    const { path } = field;
    let node = root;
    for (let depth = 0; depth < path.length - 1; depth++)
      node = (node[path[depth] ?? ''] ??= {}) as Record<string, unknown>;
    node[path[path.length - 1] ?? ''] = value;
  }
  return root;
}

export function evidenceOf(cells: Readonly<Record<string, string>>, mapping: Mapping): MappedRow['evidence'] {
  return mapping.evidence.flatMap(({ column, category, separator }) => {
    const cell = (cells[column] ?? '').trim();
    if (cell === '') return [];
    const paths =
      separator === undefined
        ? [cell]
        : cell
            .split(separator)
            .map((path) => path.trim())
            .filter((path) => path !== '');
    return paths.map((path) => ({ path, category, column }));
  });
}
