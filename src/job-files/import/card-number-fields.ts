import type { MappedRow } from '../../mapping/map-row.js';

/**
 * The fields that identify: an id, a reference the card network matches on. A card number in one
 * cannot be sent masked (it would be a wrong value sent) nor whole, so the row is refused. In any
 * other field (a cardholder's statement, a note, a custom field, a name) it is sent masked
 * (docs/import.md, "Card numbers").
 */
const identifyingFields = new Set(['case_id', 'claim_id', 'arn', 'switch_serial_number', 'program_id']);

/**
 * The first identifying field whose value masking changed: `mapped` from the masked cells,
 * `unmasked` from the same cells as read. Undefined when masking changed other fields only.
 */
export function maskedIdentifier(mapped: MappedRow, unmasked: MappedRow): string | undefined {
  if (mapped.claimId !== unmasked.claimId) return 'claim.id';
  const evidence = mapped.evidence.findIndex((file, index) => file.path !== unmasked.evidence[index]?.path);
  if (evidence >= 0) return `evidence.${mapped.evidence[evidence]?.column ?? ''}`;
  return (
    changedIdentifier('shared', mapped.shared, unmasked.shared) ?? changedIdentifier('case', mapped.case, unmasked.case)
  );
}

/**
 * Every field whose value masking changed, as the mapping names it (`shared.issuer_evidence.cardholder_explanation`,
 * `case.merchant.name`, `custom_fields.note`): what the row's results line warns was sent masked.
 */
export function maskedFields(mapped: MappedRow, unmasked: MappedRow): string[] {
  const fields: string[] = [];
  changedLeaves('shared', mapped.shared, unmasked.shared, fields);
  changedLeaves('case', mapped.case, unmasked.case, fields);
  changedLeaves('custom_fields', mapped.customFields, unmasked.customFields, fields);
  return fields;
}

function changedLeaves(at: string, masked: unknown, unmasked: unknown, fields: string[]): void {
  if (typeof masked !== 'object' || masked === null) {
    if (masked !== unmasked) fields.push(at);
    return;
  }
  const inner = typeof unmasked === 'object' && unmasked !== null ? (unmasked as Record<string, unknown>) : {};
  for (const [name, value] of Object.entries(masked)) changedLeaves(`${at}.${name}`, value, inner[name], fields);
}

function changedIdentifier(at: string, masked: unknown, unmasked: unknown): string | undefined {
  if (typeof masked !== 'object' || masked === null || typeof unmasked !== 'object' || unmasked === null)
    return undefined;
  for (const [name, value] of Object.entries(masked)) {
    const inner = (unmasked as Record<string, unknown>)[name];
    if (identifyingFields.has(name) && value !== inner) return `${at}.${name}`;
    const found = changedIdentifier(`${at}.${name}`, value, inner);
    if (found !== undefined) return found;
  }
  return undefined;
}
