import { vocabularies, type HeaderRole, type Language } from './vocabulary/index.js';
import { foldText, stopWords } from './words.js';

/**
 * Header names of card exports → what the column holds, in every language `mapping guess`
 * knows. The names themselves live in vocabulary/, one file per language.
 */
export type { HeaderRole, Language } from './vocabulary/index.js';

export interface HeaderMatch {
  readonly role: HeaderRole;
  readonly language: Language;
  /** `exact`: the whole name is a known header; `keyword`: the name contains a telling word. */
  readonly how: 'exact' | 'keyword';
  /**
   * The other roles the header's words name, in keywordOrder: tried when the values do not fit
   * the first ("Settlement Currency Amount" holds amounts, not currency codes).
   */
  readonly alternatives?: readonly HeaderRole[];
}

/**
 * The order header words are tried in, so that the longer meaning wins: "disputed amount" before
 * "amount", "cardholder statement" and "Karteninhabererklärung" before "cardholder", the date a
 * dispute was opened before the statement ("date de déclaration").
 */
const keywordOrder: readonly HeaderRole[] = [
  // "Dispute Due Date", "Representment Deadline": a deadline whatever else the header says.
  'deadline',
  'dispute.amount',
  'dispute.date',
  'issuer_evidence.cardholder_explanation',
  'transaction.arn',
  'card.last4',
  'card_number',
  'expiry',
  'transaction.currency',
  'transaction.amount',
  'cardholder.email',
  'dispute.reason',
  'merchant.name',
  'card.network',
  'cardholder.name',
];

/** Last words that make a header an identifier: of the merchant, not its name (folded, every language). */
const idWords: ReadonlySet<string> = new Set([
  'id',
  'identifier',
  'identification',
  'number',
  'no',
  'nr',
  'code',
  'ref',
  'reference',
  'nummer',
  'kennung',
  'numero',
  'identifiant',
  'identificador',
  'identificativo',
  'codigo',
  'codice',
]);

/** Whether the words appear in this order, each whole ("dispute * amount" in "dispute settlement currency amount"). */
function inOrder(padded: string, words: readonly string[]): boolean {
  let from = 0;
  for (const word of words) {
    const at = padded.indexOf(` ${word} `, from);
    if (at === -1) return false;
    from = at + word.length + 1;
  }
  return true;
}

/** Lower case, accents and ß folded, every run of other characters one space: "Währung (ISO)" → "wahrung iso". */
export const normaliseHeader = foldText;

/** Without its little words ("date de l'opération" → "date operation"), and "Nº", "Nr." read as "numero". */
function withoutStopWords(normalised: string): string {
  return normalised
    .replace(/^(n|no|nr|nro|num)(?= )/, 'numero')
    .split(' ')
    .filter((word) => !stopWords.has(word))
    .join(' ');
}

const exactIndex: ReadonlyMap<string, HeaderMatch> = (() => {
  const index = new Map<string, HeaderMatch>();
  const add = (name: string, match: HeaderMatch) => {
    if (!index.has(name)) index.set(name, match);
  };
  // The first language to claim a name keeps it ("name" is the cardholder's in every language).
  for (const { language, headers } of vocabularies) {
    for (const [role, names] of Object.entries(headers))
      for (const name of names ?? []) add(foldText(name), { role, language, how: 'exact' });
  }
  // Then the same names without their little words, for "fecha operación" beside "fecha de operación".
  for (const { language, headers } of vocabularies) {
    for (const [role, names] of Object.entries(headers))
      for (const name of names ?? []) add(withoutStopWords(foldText(name)), { role, language, how: 'exact' });
  }
  return index;
})();

const keywords: readonly { role: HeaderRole; language: Language; compounds: boolean; words: readonly string[] }[] =
  keywordOrder.flatMap((role) =>
    vocabularies.flatMap(({ language, compounds, headerWords }) => {
      const words = headerWords[role];
      // "dispute * amount": each part folded, the gap kept.
      const folded = words?.map((word) => word.split('*').map(foldText).join(' * '));
      return folded === undefined ? [] : [{ role, language, compounds, words: folded }];
    }),
  );

/** What a header name says its column holds, if anything. */
export function matchHeader(name: string): HeaderMatch | undefined {
  const normalised = normaliseHeader(name);
  const squashed = normalised.replace(/ /g, '');
  const exact = exactIndex.get(normalised) ?? exactIndex.get(squashed) ?? exactIndex.get(withoutStopWords(normalised));
  if (exact !== undefined) return exact;
  const padded = ` ${normalised} `;
  let first: { role: HeaderRole; language: Language } | undefined;
  const alternatives: HeaderRole[] = [];
  const namesAnId = idWords.has(normalised.split(' ').at(-1) ?? '');
  for (const { role, language, compounds, words } of keywords) {
    // Whole words in the spaced form; German and Dutch compounds ("Umsatzbetrag") in the squashed one.
    const found = words.some(
      (word) =>
        (word.includes(' * ') ? inOrder(padded, word.split(' * ')) : padded.includes(` ${word} `)) ||
        (compounds && squashed.includes(word.replace(/ |\*/g, ''))),
    );
    if (!found) continue;
    // "Merchant Acquirer Reporting Identifier", "Merchant Order Number": an id of the merchant, not its name.
    if (namesAnId && role.endsWith('.name')) continue;
    if (first === undefined) first = { role, language };
    else if (role !== first.role && !alternatives.includes(role)) alternatives.push(role);
  }
  if (first === undefined) return undefined;
  return { ...first, how: 'keyword', ...(alternatives.length === 0 ? {} : { alternatives }) };
}
