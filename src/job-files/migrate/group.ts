import { createHash } from 'node:crypto';
import { maskCardNumbers } from '../../card-numbers/mask.js';

/**
 * How v1 cases group into claims: one claim per case by default; with `--group-by`, the cases whose
 * fields (dot paths of the v1 case) are equal. A case with any of those fields blank goes alone:
 * blanks are not a shared value.
 */

/** `--group-by a.b,c`: dot paths, each segment a plain name. */
export function parseGroupBy(value: string): string[] {
  const fields = value.split(',').map((field) => field.trim());
  for (const field of fields) {
    if (!/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/.test(field)) {
      throw new Error(
        `--group-by: expected dot paths of the v1 case separated by commas, such as custom_fields.dispute_ref ` +
          `or cardholder.email,dispute.date, got ${JSON.stringify(value)}`,
      );
    }
  }
  return fields;
}

export function valueAt(record: unknown, path: string): string | undefined {
  let current: unknown = record;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  if (current === undefined || current === null) return undefined;
  const text =
    typeof current === 'string'
      ? current.trim()
      : typeof current === 'number' || typeof current === 'boolean'
        ? String(current)
        : JSON.stringify(current);
  return text === '' ? undefined : text;
}

/**
 * The group key: `case=<case_id>` alone, or `field="value";field="value"`. A card number in a value
 * (free text grouped by) is masked, first six and last four, since the key is written to the
 * journal and the results (docs/migrate-v1.md).
 */
export function groupKeyOf(record: { case_id: string }, groupBy: readonly string[]): string {
  const alone = `case=${JSON.stringify(record.case_id)}`;
  if (groupBy.length === 0) return alone;
  const values = groupBy.map((field) => {
    const value = valueAt(record, field);
    return value === undefined ? undefined : maskCardNumbers(value);
  });
  if (values.some((value) => value === undefined)) return alone;
  return groupBy.map((field, index) => `${field}=${JSON.stringify(values[index])}`).join(';');
}

/** `mig_` and 24 hex digits of the group key's sha256: the same key, the same claim, every run. */
export function migratedClaimId(groupKey: string): string {
  return `mig_${createHash('sha256').update(groupKey).digest('hex').slice(0, 24)}`;
}
