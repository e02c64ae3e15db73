import type { z } from 'zod';
import type { updateCaseBody } from '../../api/schemas/case.js';
import type { CaseDocument } from '../store/records.js';

type Update = z.output<typeof updateCaseBody>;
type Loose = Record<string, unknown>;

/**
 * What an update does to a stored case (sandbox choice, docs/sandbox.md, "Delete and update"):
 * nested objects merge field by field, arrays and scalars replace, `custom_fields` merge with
 * `null` removing a key, and the reason stays mirrored in both places.
 */
export function mergeCaseUpdate(document: CaseDocument, update: Update): CaseDocument {
  const { custom_fields: customFields, case_id: _caseId, ...rest } = update;
  const merged = deepMerge(document, rest);
  if (customFields !== undefined) {
    const fields = new Map(Object.entries((document.custom_fields ?? {}) as Record<string, string>));
    for (const [key, value] of Object.entries(customFields)) {
      if (value === null) fields.delete(key);
      else fields.set(key, value);
    }
    merged.custom_fields = Object.fromEntries(fields);
  }
  const reason = update.dispute?.reason ?? update.reason;
  if (reason !== undefined) {
    merged.reason = reason;
    merged.dispute = { ...((merged.dispute ?? {}) as Loose), reason };
  }
  return merged;
}

function deepMerge(base: Loose, patch: Loose): Loose {
  const result: Loose = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const current = result[key];
    result[key] = isPlainObject(value) && isPlainObject(current) ? deepMerge(current, value) : value;
  }
  return result;
}

function isPlainObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
