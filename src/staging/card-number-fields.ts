import type { CompiledMapping } from '../mapping/compile/index.js';
import type { MappedRow, RowMapping } from '../mapping/map-row.js';
import type { RowProblem } from '../job-files/import/records.js';

/**
 * The fields that identify: an id, a reference the card network matches on. A card number in one
 * cannot be sent masked (it would be a wrong value sent) nor whole, so the row is refused. In any
 * other field (a cardholder's statement, a note, a custom field, a name) it is sent masked
 * (docs/import.md, "Card numbers").
 */
const identifyingFields = new Set(['case_id', 'claim_id', 'arn', 'switch_serial_number', 'program_id']);

/** What masking a row's cells changed: a problem that refuses the row, or a warning for its results line. */
export interface MaskingChanges {
  problem?: RowProblem | undefined;
  /** `card_number_masked: <fields>`: the fields sent with a card number masked in them (the results' `warnings`). */
  warnings?: string | undefined;
}

/**
 * What masking changed in what is sent, told by mapping the row again from its cells as read, only
 * when a masked cell is in a column sent whole (`sentWhole`, columnsSentWhole): the claim key
 * (refused, `card_number_in_key`), an identifying field (refused, `card_number_in_field`), or
 * other fields (sent masked, with a warning). `mapped` is the row mapped from the masked cells.
 */
export function whatMaskingChanged(
  compiled: CompiledMapping,
  sentWhole: readonly number[],
  cells: { raw: readonly string[]; unmasked: readonly string[] },
  mapped: RowMapping,
): MaskingChanges {
  const { raw, unmasked } = cells;
  if (!sentWhole.some((index) => raw[index] !== unmasked[index])) return {};
  const claimKey = compiled.claimKey(raw);
  if (claimKey !== undefined && compiled.claimKey(unmasked) !== claimKey) return { problem: cardNumberInKey() };
  if (!mapped.ok) return {};
  const asRead = compiled.map(unmasked);
  if (!asRead.ok) return {};
  const identifier = maskedIdentifier(mapped.row, asRead.row);
  if (identifier !== undefined) return { problem: cardNumberInField(identifier) };
  const fields = maskedFields(mapped.row, asRead.row);
  return fields.length === 0 ? {} : { warnings: `card_number_masked: ${fields.join(';')}` };
}

/**
 * The claim key holds a card number: masked, two cards with the same first six and last four
 * digits would share a claim, and unmasked it would be kept and sent. The row is refused whole.
 */
function cardNumberInKey(): RowProblem {
  return {
    code: 'card_number_in_key',
    message:
      'claim key: expected a dispute reference, got a card number in its cells; a card number is never kept or ' +
      'sent, so it cannot group rows: map claim.key from another column',
    field: 'claim.key',
  };
}

/** A card number in an identifying field: masked it would be a wrong value, whole a leak. */
function cardNumberInField(field: string): RowProblem {
  return {
    code: 'card_number_in_field',
    message:
      `${field}: expected no card number, got one; a card number is never kept or sent, and masked it would ` +
      'be a wrong id: take this field from another column, or clear the card number from the cell',
    field,
  };
}

/**
 * The first identifying field whose value masking changed: `mapped` from the masked cells,
 * `unmasked` from the same cells as read. Undefined when masking changed other fields only.
 */
function maskedIdentifier(mapped: MappedRow, unmasked: MappedRow): string | undefined {
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
function maskedFields(mapped: MappedRow, unmasked: MappedRow): string[] {
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
