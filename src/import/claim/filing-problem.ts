import { caseFieldToMappingField } from '../../job-files/claims/wire-fields.js';
import type { RowProblem } from '../journal/journal.js';

/** A filing error as the service's review lists it, and as the filing rules give it (src/filing-rules). */
export interface FilingErrorLike {
  code: string;
  message: string;
  details?: { field?: string | null | undefined } | null | undefined;
}

/**
 * The first filing error as a row problem, the others named after it: the words of a `not_filed`
 * row, and of a dry run's `would_not_file` row, so that the prediction reads as the real run will
 * (docs/import.md, "A dry run"). Undefined when there is none.
 */
export function filingErrorsProblem(errors: readonly FilingErrorLike[]): RowProblem | undefined {
  const [first, ...rest] = errors;
  if (first === undefined) return undefined;
  const more = rest.length === 0 ? '' : ` (and ${rest.length} more: ${rest.map((item) => item.code).join(', ')})`;
  const field = first.details?.field;
  return {
    code: first.code,
    message: `${first.message}${more}`,
    field: typeof field === 'string' ? caseFieldToMappingField(field) : undefined,
  };
}
