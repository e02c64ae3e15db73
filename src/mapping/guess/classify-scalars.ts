import { cardNetworks, cardTypes, disputeReasons } from '../../api/schemas/known-values.js';
import { minorUnitExponent } from '../transforms/index.js';
import { matchReasonLabel } from './reason-labels.js';

/**
 * Small classifiers of a column's non-blank, trimmed values. Each answers for a column, not a cell:
 * most of its values must fit (a few bad cells stay row errors), and each says what it saw, for the
 * draft's comments.
 */

/** The share of values that must fit: a column with a few typos is still that kind of column. */
export const mostShare = 0.95;

export function mostly(values: readonly string[], test: (value: string) => boolean, share = mostShare): boolean {
  if (values.length === 0) return false;
  let fits = 0;
  for (const value of values) if (test(value)) fits++;
  return fits >= values.length * share;
}

/** An acquirer reference number: 23 digits. */
export const isArn = (value: string) => /^\d{23}$/.test(value);
export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
export const isFourDigits = (value: string) => /^\d{4}$/.test(value);
/** An ISO 4217 code with a minor unit, in either case (the draft upper-cases it). */
export const isCurrencyCode = (value: string) =>
  /^[A-Za-z]{3}$/.test(value) && minorUnitExponent(value.toUpperCase()).ok;

/** An expiry `MM/YY` or `MM/YYYY` (also with `-`): the separator, for the draft's split. */
export function expirySeparator(values: readonly string[]): string | undefined {
  for (const separator of ['/', '-']) {
    const pattern = new RegExp(`^(0?[1-9]|1[0-2])${separator}(\\d{2}|\\d{4})$`);
    if (mostly(values, (value) => pattern.test(value))) return separator;
  }
  return undefined;
}

/** How a column writes true and false. `native` spellings are what type boolean reads itself. */
export interface BooleanSpelling {
  readonly name: string;
  readonly truthy: readonly string[];
  readonly falsy: readonly string[];
  readonly native: boolean;
}

/** Common spellings in card exports: English, German J/N, French O/N, Spanish S/N. */
export const booleanSpellings: readonly BooleanSpelling[] = [
  { name: 'yes/no', truthy: ['yes', 'y'], falsy: ['no', 'n'], native: true },
  { name: 'true/false', truthy: ['true'], falsy: ['false'], native: true },
  { name: '1/0', truthy: ['1'], falsy: ['0'], native: true },
  { name: 'J/N (ja/nein)', truthy: ['j', 'ja'], falsy: ['n', 'nein'], native: false },
  { name: 'O/N (oui/non)', truthy: ['o', 'oui'], falsy: ['n', 'non'], native: false },
  { name: 'S/N (sí/no)', truthy: ['s', 'si', 'sí'], falsy: ['n', 'no'], native: false },
];

/**
 * The spelling every value of the column is in, ignoring case; the native ones first, so `y/n`
 * needs no table. At most the two values of one spelling family: a column of only `N` is read
 * as native `n`.
 */
export function booleanSpelling(values: readonly string[]): BooleanSpelling | undefined {
  const distinct = new Set(values.map((value) => value.toLowerCase()));
  if (distinct.size === 0 || distinct.size > 4) return undefined;
  // 1/0 alone is a boolean only when both appear: a column of only "1" is more likely a count.
  return booleanSpellings.find((spelling) => {
    const words = [...spelling.truthy, ...spelling.falsy];
    if (![...distinct].every((value) => words.includes(value))) return false;
    return spelling.name !== '1/0' || distinct.size === 2;
  });
}

/** The enum that turns a non-native spelling into the words type boolean reads. */
export function booleanEnum(spelling: BooleanSpelling, values: readonly string[]): Record<string, string> {
  const upper = values.some((value) => value !== value.toLowerCase());
  const spell = (word: string) => (upper ? word.toUpperCase() : word);
  const table: Record<string, string> = {};
  for (const word of spelling.truthy) table[spell(word)] = 'yes';
  for (const word of spelling.falsy) table[spell(word)] = 'no';
  return table;
}

/** Card network spellings in exports → the API's names. */
const networkSpellings: Readonly<Record<string, (typeof cardNetworks)[number]>> = {
  visa: 'visa',
  vi: 'visa',
  mastercard: 'mastercard',
  'master card': 'mastercard',
  mc: 'mastercard',
  amex: 'amex',
  'american express': 'amex',
  ax: 'amex',
  discover: 'discover',
  disc: 'discover',
};

/** Card type spellings (English, German, French, Spanish) → the API's names. */
const cardTypeSpellings: Readonly<Record<string, (typeof cardTypes)[number]>> = {
  credit: 'credit',
  kredit: 'credit',
  kreditkarte: 'credit',
  crédit: 'credit',
  credito: 'credit',
  crédito: 'credit',
  debit: 'debit',
  debitkarte: 'debit',
  débit: 'debit',
  debito: 'debit',
  débito: 'debit',
  prepaid: 'prepaid',
  prépayée: 'prepaid',
  prepayee: 'prepaid',
  prepago: 'prepaid',
  prepagada: 'prepaid',
};

const reasonSpellings: Readonly<Record<string, string>> = Object.fromEntries(
  disputeReasons.map((reason) => [reason, reason]),
);

/** Whether a column holds card networks: every value a known spelling, one of them spelled out. */
export function isNetworkColumn(values: readonly string[]): boolean {
  return (
    mostly(values, (value) => value.toLowerCase() in networkSpellings) && values.some((value) => value.length >= 4)
  );
}

export type KnownValues = 'network' | 'card_type' | 'reason';
const spellingsOf: Readonly<Record<KnownValues, Readonly<Record<string, string>>>> = {
  network: networkSpellings,
  card_type: cardTypeSpellings,
  reason: reasonSpellings,
};

/** How many times each distinct value occurs, most frequent first. */
export function codeCounts(values: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  // Ties in code-unit order, never the locale's: the same draft on every machine.
  return [...counts].sort(
    (left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : left[0] > right[0] ? 1 : 0),
  );
}

/** At most this many distinct codes make a code column: enough for reason codes, not for names. */
export const maxCodes = 30;

/** Low cardinality: few distinct, short values, each repeating on average. */
export function isCodeColumn(values: readonly string[]): boolean {
  const distinct = new Set(values);
  return (
    distinct.size <= maxCodes &&
    distinct.size * 2 <= values.length &&
    [...distinct].every((value) => value.length <= 40)
  );
}

/** An enum drafted for a code column, with the reasons behind its guessed entries. */
export interface EnumDraft {
  /** The codes found → the API value, or `TODO` where a person must say it. */
  readonly table: Record<string, string>;
  readonly todo: string[];
  /** Whether the API's own names pass through with a case change alone (`case: lower` does). */
  readonly caseOnly: boolean;
  /** Entries placed from the vocabulary, each with why: a CHECK comment each. */
  readonly checks: Record<string, string>;
  /** TODO entries two reasons read alike, with the candidates: a comment beside each. */
  readonly undecided: Record<string, string>;
}

/**
 * An enum for a code column: the codes found → the API value where the spelling is known
 * (`MC` → `mastercard`), then for reasons what the vocabulary reads in the label ("Non reçu" →
 * product_not_received, with why), `TODO` where a person must say it.
 */
export function enumFor(values: readonly string[], known: KnownValues | undefined): EnumDraft {
  const spellings = known === undefined ? {} : spellingsOf[known];
  const draft: EnumDraft = { table: {}, todo: [], caseOnly: true, checks: {}, undecided: {} };
  let caseOnly = true;
  const folded = new Set<string>();
  for (const [code] of codeCounts(values)) {
    // The draft's enums ignore case: "Visa" and "VISA" are one entry, under the commoner spelling.
    if (folded.has(code.toLowerCase())) continue;
    folded.add(code.toLowerCase());
    const target = spellings[code.toLowerCase()];
    if (target !== undefined) {
      draft.table[code] = target;
      if (target !== code.toLowerCase()) caseOnly = false;
      continue;
    }
    caseOnly = false;
    const match = known === 'reason' ? matchReasonLabel(code) : ({ kind: 'unknown' } as const);
    if (match.kind === 'placed') {
      draft.table[code] = match.reason;
      draft.checks[code] = match.why;
      continue;
    }
    draft.table[code] = 'TODO';
    draft.todo.push(code);
    if (match.kind === 'undecided') draft.undecided[code] = match.why;
  }
  return { ...draft, caseOnly };
}
