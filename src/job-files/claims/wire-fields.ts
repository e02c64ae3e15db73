import { caseTargets } from '../../mapping/targets.js';

/** Translations between new_claim body paths and the mapping's field names, for error messages. */

const caseTargetSet = new Set(caseTargets);

/**
 * A field of a case document (a filing error's `transaction.date`, `issuer_evidence.card.is_active`)
 * as the mapping names it: `case.transaction.date`, `shared.issuer_evidence.card.is_active`.
 */
export function caseFieldToMappingField(field: string): string {
  if (field.startsWith('custom_fields.')) return field;
  return caseTargetSet.has(field) || field === 'case_id' ? `case.${field}` : `shared.${field}`;
}

/**
 * `cases.0.transaction.amount` → `case.transaction.amount`, `cases.0.custom_fields.ref` →
 * `custom_fields.ref`, `card.last4` → `shared.card.last4`, `claim_id` → `claim.id`.
 */
export function wireFieldToMappingField(path: readonly string[]): string {
  if (path[0] === 'claim_id') return 'claim.id';
  if (path[0] === 'cases') {
    const rest = path.slice(2);
    if (rest[0] === 'custom_fields') return rest.join('.');
    return rest.length === 0 ? 'case' : `case.${rest.join('.')}`;
  }
  return path.length === 0 ? 'shared' : `shared.${path.join('.')}`;
}

export interface Difference {
  field: string;
  expected: string;
  got: string;
}

/** The first dot-path whose value differs between two nested objects, or undefined when equal. */
export function firstDifference(expected: object, got: object): Difference | undefined {
  const left = flatten(expected);
  const right = flatten(got);
  for (const field of new Set([...left.keys(), ...right.keys()])) {
    const before = left.get(field);
    const after = right.get(field);
    if (before !== after) return { field, expected: before ?? '(blank)', got: after ?? '(blank)' };
  }
  return undefined;
}

function flatten(value: object, prefix = '', into = new Map<string, string>()): Map<string, string> {
  for (const [key, item] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) flatten(item as object, path, into);
    else into.set(path, JSON.stringify(item));
  }
  return into;
}
