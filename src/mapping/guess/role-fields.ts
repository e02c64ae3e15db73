import type { DecimalSeparator } from '../transforms/index.js';
import { caseTargets, requiredCaseTargets, requiredSharedTargets } from '../targets.js';
import { classifyAmount, describeReading, type AmountReading } from './classify-amount.js';
import { classifyDate } from './classify-date.js';
import {
  booleanEnum,
  booleanSpelling,
  enumFor,
  expirySeparator,
  isEmail,
  isFourDigits,
  mostly,
  type KnownValues,
} from './classify-scalars.js';
import { placeholder, type FieldDraft, type SpecObject } from './field-draft.js';
import { listCodes, type ColumnProfile } from './profile.js';
import type { SignColumnGuess } from './sign-column.js';
import type { Confidence } from './types.js';

/** What the orchestrator knows that a field needs: the rows' currencies, the file's habits. */
export interface RoleContext {
  readonly preferredDecimal: DecimalSeparator;
  /** The currency of a sample row (upper case, known to ISO 4217), when a currency column is placed. */
  readonly currencyOfRow: (rowIndex: number) => string | undefined;
  /** The target an amount target's currency comes from (`currency_field`). */
  readonly currencyFieldOf: (amountTarget: string) => string;
  /** The column holding an amount column's sign, if one sits beside it (sign-column.ts). */
  readonly signColumnOf: (amount: ColumnProfile) => SignColumnGuess | undefined;
}

/** Why a column is proposed for a role: its header, its values, or both. */
export interface RoleReason {
  readonly confidence: Confidence;
  readonly evidence: readonly string[];
}

export type RoleFields = { ok: true; fields: FieldDraft[] } | { ok: false; reason: string };

const amountTargets = new Set([
  'transaction.amount',
  'dispute.amount',
  'issuer_evidence.amount_correction.amount',
  'issuer_evidence.prior_transaction.amount',
]);
const dateTargets = new Set([
  'transaction.date',
  'dispute.date',
  'issuer_evidence.cancellation.date',
  'issuer_evidence.delivery.expected_date',
  'issuer_evidence.delivery.date',
  'issuer_evidence.card.lost_date',
]);
const booleanTargets = new Set(['issuer_evidence.card.is_active', 'issuer_evidence.fraud.was_reported']);
const enumTargets: Readonly<Record<string, KnownValues | undefined>> = {
  'card.network': 'network',
  'card.type': 'card_type',
  'dispute.reason': 'reason',
};
const requiredTargets = new Set([...requiredSharedTargets, ...requiredCaseTargets, 'transaction.arn']);

export function sectionOf(target: string): 'shared' | 'case' {
  return caseTargets.includes(target) ? 'case' : 'shared';
}

/** The currency target an amount target reads its currency from. */
export function currencyTargetOf(amountTarget: string): string {
  return amountTarget.replace(/amount$/, 'currency');
}

/**
 * The draft fields for a column proposed for a role, or why its values do not fit the role
 * (a header "Datum" over amounts is not a date): the orchestrator then looks elsewhere.
 */
export function fieldsForRole(
  role: string,
  profile: ColumnProfile,
  reason: RoleReason,
  context: RoleContext,
): RoleFields {
  const column = profile.column;
  const field = (target: string, spec: SpecObject, extra: Partial<FieldDraft> = {}): FieldDraft => ({
    section: sectionOf(target),
    target,
    column,
    spec: { column, ...(requiredTargets.has(target) ? { required: true } : {}), ...spec },
    confidence: reason.confidence,
    evidence: reason.evidence,
    ...extra,
  });
  if (amountTargets.has(role)) return amountField(role, profile, reason, context, field);
  if (dateTargets.has(role)) return dateField(role, profile, reason, field);
  if (booleanTargets.has(role)) {
    const spelling = booleanSpelling(profile.values);
    if (spelling === undefined)
      return { ok: false, reason: `expected yes/no values, got ${listCodes(profile.values, 5)}` };
    const spec: SpecObject = spelling.native
      ? { type: 'boolean' }
      : { enum: booleanEnum(spelling, profile.values), enum_case_sensitive: false, type: 'boolean' };
    return {
      ok: true,
      fields: [field(role, spec, { evidence: [...reason.evidence, `booleans spelled ${spelling.name}`] })],
    };
  }
  if (role in enumTargets) return enumField(role, profile, reason, enumTargets[role], field);
  switch (role) {
    case 'transaction.currency':
      if (!mostly(profile.values, (value) => /^[A-Za-z]{3}$/.test(value)))
        return { ok: false, reason: 'expected 3-letter currency codes' };
      return {
        ok: true,
        fields: [
          field(role, { case: 'upper' }, { evidence: [...reason.evidence, `codes ${listCodes(profile.values, 6)}`] }),
        ],
      };
    case 'card.last4':
    case 'merchant.category_code':
      if (!mostly(profile.values, isFourDigits)) return { ok: false, reason: 'expected 4 digits' };
      return { ok: true, fields: [field(role, {})] };
    case 'cardholder.email':
      if (!mostly(profile.values, isEmail)) return { ok: false, reason: 'expected e-mail addresses' };
      return { ok: true, fields: [field(role, {})] };
    case 'issuer_evidence.cardholder_explanation':
      // A "Statement date" or "Comment code" column is no cardholder's words.
      if (profile.kind.kind !== 'text' && profile.kind.kind !== 'codes')
        return { ok: false, reason: `expected the cardholder's words, got ${profile.kind.kind} values` };
      return { ok: true, fields: [field(role, {})] };
    case 'expiry': {
      const separator = expirySeparator(profile.values);
      if (separator === undefined) return { ok: false, reason: 'expected expiry dates like 09/28' };
      const evidence = [
        ...reason.evidence,
        `expiry as MM${separator}YY or MM${separator}YYYY, e.g. ${JSON.stringify(profile.values[0] ?? '')}`,
      ];
      return {
        ok: true,
        fields: [
          field('card.expiry_month', { split: { separator, index: 0 }, type: 'integer' }, { evidence }),
          field(
            'card.expiry_year',
            { split: { separator, index: 1 }, type: 'year' },
            { evidence: ['the year of the same cell (two-digit years are 20xx)'] },
          ),
        ],
      };
    }
    case 'card.expiry_month':
      return { ok: true, fields: [field(role, { type: 'integer' })] };
    case 'card.expiry_year':
      return { ok: true, fields: [field(role, { type: 'year' })] };
    default:
      return { ok: true, fields: [field(role, {})] };
  }
}

type FieldMaker = (target: string, spec: SpecObject, extra?: Partial<FieldDraft>) => FieldDraft;

function amountField(
  role: string,
  profile: ColumnProfile,
  reason: RoleReason,
  context: RoleContext,
  field: FieldMaker,
): RoleFields {
  const sign = context.signColumnOf(profile);
  const cells = profile.values.map((text, position) => ({
    text,
    currency: context.currencyOfRow(profile.rowIndexes[position] ?? -1),
    negative: sign?.negativeRow(profile.rowIndexes[position] ?? -1) ?? false,
  }));
  const guess = classifyAmount(cells, context.preferredDecimal);
  if (guess === undefined)
    return { ok: false, reason: `expected amounts, got values like ${JSON.stringify(profile.values[0] ?? '')}` };
  const currency_field = context.currencyFieldOf(role);
  // Every sampled amount a debit: the report writes chargebacks so. Some only: they may be credits.
  const negatives = guess.kind === 'amount' ? guess.negatives : 0;
  const magnitude = negatives > 0 && negatives === cells.length;
  const signColumn: SpecObject | undefined =
    sign === undefined ? undefined : { column: sign.column, negative: sign.negative, positive: sign.positive };
  const spec = (reading: AmountReading): SpecObject => ({
    type: 'amount',
    amount: {
      currency_field,
      decimal_separator: reading.decimal,
      group_separator: reading.group,
      ...(magnitude ? { negative: 'magnitude' } : {}),
      ...(signColumn === undefined ? {} : { sign_column: signColumn }),
    },
  });
  if (guess.kind === 'ambiguous') {
    const todo =
      `column ${JSON.stringify(profile.column)}: pick the decimal separator ` +
      `(${guess.readings.map(describeReading).join(', or ')}), then write its column`;
    return ambiguousField(
      role,
      profile,
      todo,
      [...reason.evidence, `amounts, ambiguous: ${guess.evidence}`],
      guess.readings.map(spec),
    );
  }
  const signs = signChecks(negatives, cells.length, sign);
  const draft = field(role, spec(guess.reading), {
    evidence: [...reason.evidence, `amounts, ${guess.evidence}`, ...(sign === undefined ? [] : [sign.evidence])],
  });
  const problems = [...(guess.confidence === 'high' ? [] : [guess.evidence]), ...signs];
  const merged: FieldDraft =
    problems.length === 0
      ? draft
      : { ...draft, confidence: 'medium', check: `column ${JSON.stringify(profile.column)}: ${problems.join('; ')}` };
  return { ok: true, fields: [merged] };
}

/** What the draft says of an amount column's signs: each is a guess a person confirms. */
function signChecks(negatives: number, count: number, sign: SignColumnGuess | undefined): string[] {
  const checks: string[] = [];
  if (negatives === count)
    checks.push(
      `${negatives} of ${count} sampled amounts are negative: read as their magnitude (negative: magnitude), as ` +
        'in a report that writes a chargeback as a debit; if they are credits, drop the line to refuse them',
    );
  else if (negatives > 0)
    checks.push(
      `${negatives} of ${count} sampled amounts are negative: refused as amount_negative (credits?); write ` +
        'negative: magnitude if this report writes a chargeback as a debit',
    );
  if (sign !== undefined) checks.push(sign.evidence);
  return checks;
}

function dateField(role: string, profile: ColumnProfile, reason: RoleReason, field: FieldMaker): RoleFields {
  // The role comes from a header (or a column already read as dates): six digits may be yyMMdd.
  const guess = classifyDate(profile.values, { sixDigits: true });
  if (guess === undefined)
    return { ok: false, reason: `expected dates, got values like ${JSON.stringify(profile.values[0] ?? '')}` };
  if (guess.kind === 'ambiguous') {
    const todo = `column ${JSON.stringify(profile.column)}: day or month first? (${guess.formats.join(' or ')}), then write its column`;
    return ambiguousField(
      role,
      profile,
      todo,
      [...reason.evidence, `dates, ambiguous: ${guess.evidence}`],
      guess.formats.map((format) => ({ type: 'date', date: { format } })),
    );
  }
  const date: SpecObject = guess.needsTimeZone ? { format: guess.format, time_zone: 'UTC' } : { format: guess.format };
  const evidence = [...reason.evidence, `dates, ${guess.evidence}`];
  const problems = [
    ...(guess.needsTimeZone
      ? [
          "times of day without an offset, read as UTC: write the export's time zone (e.g. Europe/Berlin) if it is another",
        ]
      : []),
    ...(guess.confidence === 'high' ? [] : [guess.evidence]),
  ];
  const check = problems.length === 0 ? undefined : `column ${JSON.stringify(profile.column)}: ${problems.join('; ')}`;
  const confidence: Confidence = guess.confidence === 'high' && check === undefined ? reason.confidence : 'medium';
  return {
    ok: true,
    fields: [field(role, { type: 'date', date }, { evidence, confidence, ...(check === undefined ? {} : { check }) })],
  };
}

function enumField(
  role: string,
  profile: ColumnProfile,
  reason: RoleReason,
  known: KnownValues | undefined,
  field: FieldMaker,
): RoleFields {
  const { table, todo, caseOnly, checks, undecided } = enumFor(profile.values, known);
  const codes = `codes ${listCodes(profile.values)}`;
  if (Object.keys(table).length > 30)
    return { ok: false, reason: `expected a few codes, got ${Object.keys(table).length} distinct values` };
  if (caseOnly)
    return {
      ok: true,
      fields: [field(role, { case: 'lower' }, { evidence: [...reason.evidence, `${codes}: the API's own names`] })],
    };
  const spec: SpecObject = { enum: table, enum_case_sensitive: false };
  const guessed = Object.keys(checks).length;
  const evidence = [
    ...reason.evidence,
    codes,
    ...(guessed === 0
      ? []
      : [
          `${guessed} of ${Object.keys(table).length} labels read from the vocabulary of issuers' and networks' reason names: CHECK each`,
        ]),
  ];
  const comments = {
    ...(guessed === 0 ? {} : { entryChecks: checks }),
    ...(Object.keys(undecided).length === 0 ? {} : { entryNotes: undecided }),
  };
  if (todo.length === 0)
    return {
      ok: true,
      fields: [
        field(role, spec, { evidence, ...comments, ...(guessed === 0 ? {} : { confidence: 'medium' as const }) }),
      ],
    };
  const message = `column ${JSON.stringify(profile.column)}: write the ${role} value of ${todo.map((code) => JSON.stringify(code)).join(', ')} in its enum`;
  return { ok: true, fields: [field(role, spec, { evidence, ...comments, todo: message, confidence: 'medium' })] };
}

/** A column read more than one way: a placeholder to choose from, its readings as the alternatives. */
function ambiguousField(
  role: string,
  profile: ColumnProfile,
  todo: string,
  evidence: string[],
  readings: readonly SpecObject[],
): RoleFields {
  const alternatives = readings.map((reading) => ({ column: profile.column, required: true, ...reading }));
  return { ok: true, fields: [placeholder(sectionOf(role), role, todo, evidence, alternatives, profile.column)] };
}
