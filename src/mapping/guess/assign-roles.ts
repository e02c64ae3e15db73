import type { DecimalSeparator } from '../transforms/index.js';
import { cardNumberNote, readsAsCardNumbers } from './card-number-column.js';
import { isCurrencyCode } from './classify-scalars.js';
import type { FieldDraft } from './field-draft.js';
import type { ColumnProfile } from './profile.js';
import { checkedAgainstCardNumbers } from './network-agreement.js';
import { networkFromCardNumbers } from './network-from-card-numbers.js';
import { isReasonColumn } from './reason-labels.js';
import { currencyTargetOf, fieldsForRole, type RoleContext, type RoleReason } from './role-fields.js';
import { signColumnCandidates, signColumnFor } from './sign-column.js';
import type { Confidence, Sample } from './types.js';

/** A column given a role: new_claim fields, or one of the roles placed elsewhere in a mapping. */
export interface Assignment {
  readonly role: string;
  readonly profile: ColumnProfile;
  readonly fields: readonly FieldDraft[];
  readonly confidence: Confidence;
}

export interface Assignments {
  readonly assigned: readonly Assignment[];
  /** Roles placed outside shared/case: the claim key's candidates by header, case ids, evidence columns. */
  readonly named: {
    readonly claimKey: readonly ColumnProfile[];
    readonly caseId: readonly ColumnProfile[];
    readonly evidence: readonly ColumnProfile[];
  };
  /** Why a column is not where its header or values pointed: kept for the unplaced list. */
  readonly notes: ReadonlyMap<string, string>;
  /** The column the rows' currencies come from, if any. */
  readonly currencyColumn: ColumnProfile | undefined;
  /**
   * Columns of card numbers, by their cells or their header: cardholder data, never a key, an id
   * or free text; the first fills card.last4 (`last4: true`) when no last-four column does.
   */
  readonly cardNumbers: readonly ColumnProfile[];
}

const rank: Readonly<Record<Confidence, number>> = { high: 3, medium: 2, low: 1 };
const placedElsewhere = new Set(['claim_key', 'case_id', 'evidence']);
/** Roles a header's other words may name that are not tried as a field (alternatives of HeaderMatch). */
const notAlternative = new Set([...placedElsewhere, 'card_number', 'deadline']);

/**
 * Which column fills which target. Headers first (an exact known name is `high`, a telling word in
 * it `medium`), each checked against the column's values; then values alone for the targets no
 * header claimed (23 digits are an ARN, e-mail addresses the cardholder's, ISO 4217 codes a
 * currency, card networks the network, 4 digits beside a network the last four). A target goes to
 * one column: the more confident claim wins, the other is noted.
 */
export function assignRoles(
  sample: Sample,
  profiles: readonly ColumnProfile[],
  preferredDecimal: DecimalSeparator,
): Assignments {
  const notes = new Map<string, string>();
  const currencyColumn = findCurrencyColumn(profiles);
  const context = roleContext(sample, profiles, currencyColumn, preferredDecimal);
  const taken = new Map<string, Assignment>();
  // The columns that wanted a role another one took, by a word of their headers alike.
  const rivals = new Map<string, string[]>();
  const named = { claimKey: [] as ColumnProfile[], caseId: [] as ColumnProfile[], evidence: [] as ColumnProfile[] };

  /** `unfit`: the values do not fit the role (noted); `taken`: another column fills it more surely. */
  const propose = (role: string, profile: ColumnProfile, reason: RoleReason): 'placed' | 'taken' | 'unfit' => {
    const result = fieldsForRole(role, profile, reason, context);
    if (!result.ok) {
      notes.set(profile.column, `looks like ${role} by ${reason.evidence[0] ?? 'its values'}, but ${result.reason}`);
      return 'unfit';
    }
    const current = taken.get(role);
    if (current !== undefined) rivals.set(role, [...(rivals.get(role) ?? []), profile.column, current.profile.column]);
    if (current !== undefined && rank[current.confidence] >= rank[reason.confidence]) {
      notes.set(profile.column, `also looks like ${role}, which ${JSON.stringify(current.profile.column)} fills`);
      return 'taken';
    }
    if (current !== undefined)
      notes.set(current.profile.column, `also looks like ${role}, which ${JSON.stringify(profile.column)} fills`);
    taken.set(role, { role, profile, fields: result.fields, confidence: reason.confidence });
    return 'placed';
  };

  const cardNumbers = profiles.filter(isCardNumberColumn);
  for (const profile of profiles) {
    const header = profile.header;
    if (header === undefined || profile.kind.kind === 'empty' || cardNumbers.includes(profile)) continue;
    if (header.role === 'card_number') {
      notes.set(profile.column, 'its header names card numbers, but its values are none');
      continue;
    }
    // What a spreadsheet damaged is no field's (its description says why); a deadline is never the transaction date.
    if (profile.kind.kind === 'damaged') continue;
    if (header.role === 'deadline') {
      notes.set(profile.column, 'its header names a deadline, which is never the transaction date');
      continue;
    }
    if (header.role === 'claim_key') named.claimKey.push(profile);
    else if (header.role === 'case_id') named.caseId.push(profile);
    else if (header.role === 'evidence') named.evidence.push(profile);
    else {
      const confidence: Confidence = header.how === 'exact' ? 'high' : 'medium';
      const how = header.how === 'exact' ? `${header.language} header` : `a ${header.language} word in the header`;
      const reason = { confidence, evidence: [`${how} ${JSON.stringify(profile.column)}`] };
      // "Settlement Currency Amount": the header's next role when its values are not the first's.
      for (const role of [header.role, ...(header.alternatives ?? []).filter((other) => !notAlternative.has(other))])
        if (propose(role, profile, reason) !== 'unfit') break;
    }
  }
  const isPlaced = (profile: ColumnProfile) =>
    cardNumbers.includes(profile) ||
    [...taken.values()].some((assignment) => assignment.profile === profile) ||
    named.claimKey.includes(profile) ||
    named.caseId.includes(profile) ||
    named.evidence.includes(profile);

  for (const profile of profiles) {
    if (isPlaced(profile)) continue;
    const byValues = roleByValues(profile, profiles);
    if (byValues === undefined || taken.has(byValues.role)) continue;
    propose(byValues.role, profile, { confidence: byValues.confidence, evidence: [byValues.evidence] });
  }
  // The only date (or amount) column nobody placed is likely the transaction's: a low guess.
  for (const [role, kind] of [
    ['transaction.date', 'date'],
    ['transaction.amount', 'number'],
  ] as const) {
    if (taken.has(role)) continue;
    // A deadline's date is never the transaction's (a TODO is right when there is no other).
    const loose = profiles.filter(
      (profile) => !isPlaced(profile) && profile.kind.kind === kind && profile.header?.role !== 'deadline',
    );
    const only = loose[0];
    if (loose.length === 1 && only !== undefined)
      propose(role, only, { confidence: 'low', evidence: [`the only ${kind} column no header placed`] });
  }
  checkRivals(taken, rivals);
  const cardNumber = cardNumbers[0];
  if (!taken.has('card.last4') && cardNumber !== undefined) taken.set('card.last4', lastFourOf(cardNumber));
  if (cardNumber !== undefined) placeNetworkBy(cardNumber, sample, taken);
  return {
    assigned: [...taken.values()].filter((assignment) => !placedElsewhere.has(assignment.role)),
    named,
    notes,
    currencyColumn,
    cardNumbers,
  };
}

/**
 * A role taken by a word of its header where other columns' headers had the word too ("amount" in
 * four columns of a lifecycle report): which is the one meant is a person's call, a CHECK naming
 * the others. A header that is a known name whole ("Transaction Amount") needs none.
 */
function checkRivals(taken: Map<string, Assignment>, rivals: ReadonlyMap<string, readonly string[]>): void {
  for (const [role, columns] of rivals) {
    const assignment = taken.get(role);
    if (assignment === undefined || assignment.profile.header?.how !== 'keyword') continue;
    const others = [...new Set(columns)].filter((column) => column !== assignment.profile.column);
    if (others.length === 0) continue;
    const question =
      `is ${JSON.stringify(assignment.profile.column)} the one meant? ` +
      `${others.length === 1 ? 'another column names' : `${others.length} other columns name`} ${role} too: ` +
      others.map((column) => JSON.stringify(column)).join(', ');
    const fields = assignment.fields.map((field) =>
      field.target === role
        ? { ...field, check: field.check === undefined ? question : `${question}; ${field.check}` }
        : field,
    );
    taken.set(role, { ...assignment, fields });
  }
}

/** Card numbers by the cells (as masked: `497010******0012`), or by a header naming them over cells last4 reads. */
function isCardNumberColumn(profile: ColumnProfile): boolean {
  return (
    profile.kind.kind === 'card_number' ||
    (profile.header?.role === 'card_number' && readsAsCardNumbers(profile.values))
  );
}

/**
 * card.network and the card numbers' first digits: the network from them when no column names it,
 * else the column checked against them.
 */
function placeNetworkBy(cardNumber: ColumnProfile, sample: Sample, taken: Map<string, Assignment>): void {
  const named = taken.get('card.network');
  if (named !== undefined) {
    const fields = named.fields.map((field) =>
      field.target === 'card.network' ? checkedAgainstCardNumbers(sample, field, cardNumber) : field,
    );
    taken.set('card.network', { ...named, fields });
    return;
  }
  const network = networkFromCardNumbers(cardNumber);
  if (network !== undefined)
    taken.set('card.network', {
      role: 'card.network',
      profile: cardNumber,
      fields: [network],
      confidence: network.confidence,
    });
}

/** card.last4 from a card-number column: its last four digits, the only part of it a mapping sends. */
function lastFourOf(profile: ColumnProfile): Assignment {
  const byCells = profile.kind.kind === 'card_number';
  const how = [
    ...(profile.header?.role === 'card_number' ? [`${profile.header.language} header`] : []),
    ...(byCells ? [`card numbers in its cells, e.g. ${JSON.stringify(profile.values[0] ?? '')}`] : []),
  ].join(' and ');
  const confidence: Confidence = byCells ? 'high' : 'medium';
  const field: FieldDraft = {
    section: 'shared',
    target: 'card.last4',
    column: profile.column,
    spec: { column: profile.column, required: true, last4: true },
    confidence,
    evidence: [`a card-number column by its ${how}`, cardNumberNote(profile.column, undefined)],
  };
  return { role: 'card.last4', profile, fields: [field], confidence };
}

/** What judging a column for a role needs: the decimal separator expected, and where amounts' currencies are. */
function roleContext(
  sample: Sample,
  profiles: readonly ColumnProfile[],
  currencyColumn: ColumnProfile | undefined,
  preferredDecimal: DecimalSeparator,
): RoleContext {
  const signCandidates = signColumnCandidates(profiles);
  const currencyOfRow = (rowIndex: number): string | undefined => {
    const code = (sample.rows[rowIndex]?.[currencyColumn?.column ?? ''] ?? '').trim().toUpperCase();
    return currencyColumn !== undefined && isCurrencyCode(code) ? code : undefined;
  };
  return {
    preferredDecimal,
    currencyOfRow,
    currencyFieldOf: (amountTarget) =>
      currencyColumn === undefined && amountTarget === 'dispute.amount'
        ? 'transaction.currency'
        : currencyTargetOf(amountTarget),
    signColumnOf: (amount) => signColumnFor(amount, signCandidates),
  };
}

function findCurrencyColumn(profiles: readonly ColumnProfile[]): ColumnProfile | undefined {
  return (
    profiles.find((profile) => profile.header?.role === 'transaction.currency' && profile.kind.kind === 'currency') ??
    profiles.find((profile) => profile.kind.kind === 'currency')
  );
}

function roleByValues(
  profile: ColumnProfile,
  profiles: readonly ColumnProfile[],
): { role: string; confidence: Confidence; evidence: string } | undefined {
  const example = JSON.stringify(profile.values[0] ?? '');
  switch (profile.kind.kind) {
    case 'arn':
      return {
        role: 'transaction.arn',
        confidence: 'high',
        evidence: `23-digit values (acquirer reference numbers), e.g. ${example}`,
      };
    case 'email':
      return { role: 'cardholder.email', confidence: 'high', evidence: `e-mail addresses, e.g. ${example}` };
    case 'currency':
      return { role: 'transaction.currency', confidence: 'medium', evidence: `ISO 4217 codes, e.g. ${example}` };
    case 'network':
      return { role: 'card.network', confidence: 'high', evidence: `card networks, e.g. ${example}` };
    case 'expiry':
      return { role: 'expiry', confidence: 'medium', evidence: `expiry dates, e.g. ${example}` };
    case 'codes':
      // A reason column by its values: labels like "Non reçu", "Ware nicht erhalten" under a
      // header no vocabulary knows.
      if (!isReasonColumn([...new Set(profile.values)])) return undefined;
      return {
        role: 'dispute.reason',
        confidence: 'medium',
        evidence: `labels that read as dispute reasons, e.g. ${example}`,
      };
    case 'four_digits': {
      const neighbours = profiles.filter((other) => Math.abs(other.position - profile.position) === 1);
      const network = neighbours.find(
        (other) => other.kind.kind === 'network' || other.header?.role === 'card.network',
      );
      if (network === undefined) return undefined;
      return {
        role: 'card.last4',
        confidence: 'medium',
        evidence: `4-digit values beside the card network column ${JSON.stringify(network.column)}, e.g. ${example}`,
      };
    }
    default:
      return undefined;
  }
}
