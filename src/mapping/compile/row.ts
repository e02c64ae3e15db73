import { claimKeyBlankError, planOf, type PlannedField, type RowMapping } from '../map-row.js';
import type { Mapping } from '../schema.js';
import { arnProblem, identifierDamage } from '../spreadsheet-damage.js';
import { cell, GeneratedCode, property } from './code.js';
import { emitField, type CompileContext, type Presence } from './field.js';

/**
 * The whole of mapRow as one generated function of a record's cells, in mapRow's order: the shared
 * and case fields (amounts last, as they may read a currency of either section), the ARN check, the
 * claim key, the claim id, the custom fields; then, for a row without errors, the new_claim
 * fragments built directly and the evidence paths. One function rather than one per section: the
 * error order runs across the sections.
 */
export function compileRow(mapping: Mapping, header: readonly string[]): (raw: readonly string[]) => RowMapping {
  const code = new GeneratedCode();
  const blankCells: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const column of header) blankCells[column] = '';
  const context: CompileContext = {
    code,
    mapping,
    header,
    columnIndex: new Map(header.map((column, index) => [column, index])),
    blankCells,
  };
  const plan = planOf(mapping);
  const errors = code.variable();
  code.line(`const ${errors} = [];`);
  const pushError = (field: string, failure: string) => {
    code.line(
      `if (${failure} !== undefined) ${errors}.push({ field: ${code.constant(field)}, code: ${failure}.code, message: ${failure}.message });`,
    );
  };

  // The fields' value variables by field name, in evaluation order, with their presence.
  const values = new Map<string, string>();
  const presence = new Map<string, Presence>();
  const field = (name: string, spec: PlannedField['spec']) => {
    const value = code.variable();
    const failure = code.variable();
    const found = emitField(context, { field: name, spec, value, failure, earlier: new Map(values) });
    pushError(name, failure);
    return { value, found };
  };
  for (const { field: name, spec } of plan.fields) {
    const { value, found } = field(name, spec);
    values.set(name, value);
    presence.set(name, found);
  }
  emitArnCheck(code, errors, values);
  const keyValues = emitClaimKey(context, errors);
  const claimId = mapping.claim.id === undefined ? undefined : field('claim.id', mapping.claim.id).value;
  const customValues = plan.customFields.map(({ name, field: fieldName, spec }) => ({
    name,
    value: field(fieldName, spec).value,
  }));
  code.line(`if (${errors}.length > 0) return { ok: false, errors: ${errors} };`);

  const shared = emitSection(code, plan.fields, values, presence, 'shared');
  const caseFragment = emitSection(code, plan.fields, values, presence, 'case');
  const customFields = code.variable();
  code.line(`const ${customFields} = {};`);
  for (const { name, value } of customValues)
    code.line(`if (${value} !== undefined) ${customFields}${property(name)} = String(${value});`);
  const evidence = emitEvidence(context);
  const claimIdText = claimId === undefined ? 'undefined' : `${claimId} === undefined ? undefined : String(${claimId})`;
  code.line(
    `return { ok: true, row: { claimKey: JSON.stringify([${keyValues.join(', ')}]), claimId: ` +
      `${claimIdText}, shared: ${shared}, case: ${caseFragment}, customFields: ${customFields}, evidence: ` +
      `${evidence} } };`,
  );
  return code.build('mapCompiled', 'raw') as (raw: readonly string[]) => RowMapping;
}

/** An ARN checked as an ARN, for its card network (map-row.ts). */
function emitArnCheck(code: GeneratedCode, errors: string, values: ReadonlyMap<string, string>): void {
  const arn = values.get('case.transaction.arn');
  if (arn === undefined) return;
  const network = values.get('shared.card.network');
  const problem = code.variable();
  code.line(
    `if (typeof ${arn} === 'string') { const ${problem} = ${code.constant(arnProblem)}(${arn}, ` +
      `${network === undefined ? 'undefined' : `typeof ${network} === 'string' ? ${network} : undefined`});`,
  );
  code.line(
    `  if (${problem} !== undefined) ${errors}.push({ field: ${code.constant('case.transaction.arn')}, ` +
      `code: ${problem}.code, message: ${problem}.message }); }`,
  );
}

/** The key columns' values, trimmed, into variables; a blank one, or a damaged one, is an error. */
function emitClaimKey(context: CompileContext, errors: string): string[] {
  const { code, mapping, columnIndex } = context;
  const keyValues = mapping.claim.key.map((column) => {
    const value = code.variable();
    const index = columnIndex.get(column);
    code.line(`const ${value} = ${index === undefined ? "''" : `${cell(index)}.trim()`};`);
    return value;
  });
  if (keyValues.length > 0) {
    const blank = claimKeyBlankError(mapping);
    code.line(
      `if (${keyValues.map((value) => `${value} === ''`).join(' || ')}) ${errors}.push({ field: ` +
        `${code.constant(blank.field)}, code: ${code.constant(blank.code)}, message: ` +
        `${code.constant(blank.message)} });`,
    );
  }
  for (const column of mapping.claim.key) {
    const index = columnIndex.get(column);
    // A missing column reads as blank, which no spreadsheet damaged.
    if (index === undefined && identifierDamage('claim.key', column, '') === undefined) continue;
    const damage = code.variable();
    code.line(
      `{ const ${damage} = ${code.constant(identifierDamage)}(${code.constant('claim.key')}, ` +
        `${code.constant(column)}, ${index === undefined ? "''" : cell(index)});`,
    );
    code.line(
      `  if (${damage} !== undefined) ${errors}.push({ field: ${code.constant('claim.key')}, code: ${damage}.code, message: ${damage}.message }); }`,
    );
  }
  return keyValues;
}

/**
 * One section's values as its nested fragment, as mapRow's nest builds it: in evaluation order,
 * each object made when the first value under it is set, so keys come in the same order; a field
 * left out (undefined) stays out. Returns the fragment's variable.
 */
function emitSection(
  code: GeneratedCode,
  fields: readonly PlannedField[],
  values: ReadonlyMap<string, string>,
  presence: ReadonlyMap<string, Presence>,
  section: 'shared' | 'case',
): string {
  const root = code.variable();
  code.line(`const ${root} = {};`);
  // The variable holding each object below the root, by its path, declared before its first use.
  const nodes = new Map<string, string>();
  const nodeOf = (path: readonly string[]): string => {
    if (path.length === 0) return root;
    const key = JSON.stringify(path);
    let node = nodes.get(key);
    if (node === undefined) {
      node = code.variable();
      nodes.set(key, node);
      code.line(`let ${node};`);
    }
    return `(${node} ??= (${nodeOf(path.slice(0, -1))}${property(path[path.length - 1] ?? '')} = {}))`;
  };
  for (const { field, section: fieldSection, path } of fields) {
    const value = values.get(field);
    const found = presence.get(field);
    if (fieldSection !== section || value === undefined || found === 'never') continue;
    const assignment = `${nodeOf(path.slice(0, -1))}${property(path[path.length - 1] ?? '')} = ${value};`;
    code.line(found === 'always' ? assignment : `if (${value} !== undefined) ${assignment}`);
  }
  return root;
}

/** The evidence paths the row names, as evidenceOf gives them (map-row.ts). */
function emitEvidence(context: CompileContext): string {
  const { code, mapping, columnIndex } = context;
  const evidence = code.variable();
  code.line(`const ${evidence} = [];`);
  for (const { column, category, separator } of mapping.evidence) {
    const index = columnIndex.get(column);
    // A missing column reads as blank: no path.
    if (index === undefined) continue;
    const text = code.variable();
    const entry = (path: string) =>
      `${evidence}.push({ path: ${path}, category: ${code.constant(category)}, column: ${code.constant(column)} });`;
    code.line(`{ const ${text} = ${cell(index)}.trim();`);
    if (separator === undefined) {
      code.line(`  if (${text} !== '') ${entry(text)} }`);
      continue;
    }
    const part = code.variable();
    const path = code.variable();
    code.line(
      `  if (${text} !== '') for (const ${part} of ${text}.split(${code.constant(separator)})) { const ` +
        `${path} = ${part}.trim(); if (${path} !== '') ${entry(path)} } }`,
    );
  }
  return evidence;
}
