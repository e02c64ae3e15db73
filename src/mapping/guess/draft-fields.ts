import type { Assignments } from './assign-roles.js';
import type { ClaimKeyGuess } from './claim-key.js';
import { placeholder, type FieldDraft, type SpecObject } from './field-draft.js';
import type { ColumnProfile } from './profile.js';
import { currencyTargetOf, sectionOf } from './role-fields.js';
import type { Sample } from './types.js';

/** The targets every draft must map: each one no column was found for gets a TODO placeholder. */
const requiredTargets: readonly { target: string; todo: string }[] = [
  { target: 'card.last4', todo: "no column with the card's last four digits found: write its column" },
  {
    target: 'card.network',
    todo: 'no card network column found: write its column, or { constant: visa } when every card is one network',
  },
  {
    target: 'dispute.reason',
    todo: 'no dispute reason column found: write its column with an enum, or { constant: fraud } when every dispute has one reason',
  },
  { target: 'transaction.amount', todo: 'no amount column found: write its column with type amount' },
  {
    target: 'transaction.currency',
    todo: 'no currency column found: write its column, or { constant: EUR } when every amount is in one currency',
  },
  { target: 'transaction.date', todo: 'no transaction date column found: write its column with type date' },
];

/** The assigned fields, plus a currency for every amount, plus a placeholder for each required target left. */
export function completeFields(assignments: Assignments): FieldDraft[] {
  const fields = assignments.assigned.flatMap((assignment) => assignment.fields);
  const has = (target: string) => fields.some((field) => field.target === target);
  const currencyField = fields.find((field) => field.target === 'transaction.currency');
  // One currency column often serves both amounts (mappings/generic.yaml does the same).
  if (has('dispute.amount') && !has('dispute.currency') && currencyField?.column !== undefined) {
    fields.push({
      ...currencyField,
      section: sectionOf('dispute.currency'),
      target: currencyTargetOf('dispute.amount'),
      evidence: ['the same currency column as transaction.currency'],
    });
  }
  for (const { target, todo } of requiredTargets)
    if (!has(target)) fields.push(placeholder(sectionOf(target), target, todo));
  const hasReference = fields.some(
    (field) => field.target === 'transaction.arn' || field.target.endsWith('.switch_serial_number'),
  );
  if (!hasReference) {
    fields.push(
      placeholder(
        'case',
        'transaction.arn',
        'no ARN column (23 digits) found: write its column, or map a switch_serial_number under transaction.network_details instead',
      ),
    );
  }
  return fields;
}

/** A case id column: itself when distinct on every row, else made unique within its claim by a template. */
export function caseIdField(
  sample: Sample,
  candidates: readonly ColumnProfile[],
  claimKey: ClaimKeyGuess,
): FieldDraft | undefined {
  const profile = candidates[0];
  if (profile === undefined || profile.blanks > 0) return undefined;
  const distinct = new Set(profile.values).size === profile.values.length;
  const keyColumn = claimKey.column;
  if (!distinct && keyColumn === undefined) return undefined;
  const spec: SpecObject = distinct
    ? { column: profile.column }
    : { template: `{${keyColumn ?? ''}}-{${profile.column}}` };
  const pairsDistinct =
    distinct ||
    new Set(sample.rows.map((row) => `${row[keyColumn ?? ''] ?? ''}\u0000${row[profile.column] ?? ''}`)).size ===
      sample.rows.length;
  if (!pairsDistinct) return undefined;
  return {
    section: 'case',
    target: 'case_id',
    column: profile.column,
    spec,
    confidence: 'medium',
    evidence: [
      `${profile.header?.language ?? 'the'} header names a transaction or case reference; ` +
        (distinct
          ? 'distinct on every row'
          : `repeats across claims, so prefixed with the claim key ${JSON.stringify(keyColumn)}`),
    ],
  };
}
