import { disputeReasons } from '../../api/schemas/known-values.js';
import { readCode, type CodeReading } from './reason-codes.js';
import { vocabularies, type DisputeReason, type Language } from './vocabulary/index.js';
import { contentWords, similarity, type Word } from './words.js';

/**
 * A dispute reason from the label an issuer wrote in its export: "Non reçu", "Ware nicht erhalten",
 * "10.4", "DUP". A label is placed only when one reason clearly reads best; a label two reasons
 * read about as well stays a person's decision, and says why.
 */
export type ReasonLabelMatch =
  /** `how`: by the label's words, by a network's reason code, or as an issuers' abbreviation. */
  | {
      readonly kind: 'placed';
      readonly reason: DisputeReason;
      readonly why: string;
      readonly how: 'words' | 'code' | 'abbreviation';
    }
  | { readonly kind: 'undecided'; readonly why: string }
  | { readonly kind: 'unknown' };

/** The score a reason needs to be placed (1 is every word of label and phrase shared). */
export const minimumScore = 0.6;
/** How far the best reason must lead the next: closer than this, a person decides. */
export const minimumLead = 0.15;
/** The weight of a label word no vocabulary has: it counts against every reason alike. */
const unknownWordWeight = 1;

/** What each reason means, in the CHECK comments. */
export const reasonGloss: Readonly<Record<DisputeReason, string>> = {
  fraud: 'fraud (the cardholder did not take part)',
  invalid_authorization: 'no valid authorisation',
  product_not_received: 'not received',
  product_not_as_described: 'not as described or defective',
  credit_not_processed: 'refund or credit not processed',
  subscription_canceled: 'a cancelled recurring payment',
  duplicate_charge: 'duplicate processing',
  incorrect_amount: 'incorrect amount',
  cash_not_received: 'cash not received from a machine',
  canceled_or_returned: 'cancelled or returned goods or services',
  product_counterfeit: 'counterfeit goods',
  other: 'other',
};

interface Phrase {
  readonly reason: DisputeReason;
  readonly language: Language;
  readonly written: string;
  readonly stems: readonly string[];
  /** The stems in code-unit order: a label with the same key has the same words in any order. */
  readonly key: string;
}

const sortedKey = (stems: readonly string[]) => [...stems].sort().join(' ');

const phrases: readonly Phrase[] = vocabularies.flatMap(({ language, reasons }) =>
  Object.entries(reasons).flatMap(([reason, written]) =>
    written.map((text) => {
      const stems = contentWords(text).map((word) => word.stem);
      return { reason: reason as DisputeReason, language, written: text, stems, key: sortedKey(stems) };
    }),
  ),
);

const phrasesOf = new Map<DisputeReason, readonly Phrase[]>(
  disputeReasons.map((reason) => [reason, phrases.filter((phrase) => phrase.reason === reason)]),
);
const stemsOf = new Map<DisputeReason, ReadonlySet<string>>(
  disputeReasons.map((reason) => [reason, new Set((phrasesOf.get(reason) ?? []).flatMap((phrase) => phrase.stems))]),
);

/** A stem's weight: rarer across reasons tells more ("reçu" one reason, "non" many), as in tf-idf. */
const weightOf: ReadonlyMap<string, number> = (() => {
  const reasonsWith = new Map<string, number>();
  for (const stems of stemsOf.values())
    for (const stem of stems) reasonsWith.set(stem, (reasonsWith.get(stem) ?? 0) + 1);
  return new Map([...reasonsWith].map(([stem, count]) => [stem, Math.log(1 + disputeReasons.length / count)]));
})();
const allStems = [...weightOf.keys()];

/**
 * Whether a column of codes holds dispute reasons, by its values alone (a header no vocabulary
 * knows): most distinct labels read as reasons, at least two of them by their words. Codes and
 * abbreviations alone could be anything ("FR" is France too).
 */
export function isReasonColumn(distinctLabels: readonly string[]): boolean {
  const matches = distinctLabels.map(matchReasonLabel);
  const placed = matches.filter((match) => match.kind === 'placed');
  return placed.length >= distinctLabels.length * 0.6 && placed.filter((match) => match.how === 'words').length >= 2;
}

export function matchReasonLabel(label: string): ReasonLabelMatch {
  const code = readCode(label);
  if (code === undefined) return matchWords(label);
  switch (code.kind) {
    case 'abbreviation':
      return {
        kind: 'placed',
        reason: code.reason,
        why: `"${code.code}", an issuers' abbreviation: ${code.meaning}`,
        how: 'abbreviation',
      };
    case 'several':
      return {
        kind: 'undecided',
        why: `several reason codes (${code.codes.join(', ')}): pick the one these disputes are`,
      };
    case 'code':
      return withCode(code, matchWords(code.rest));
  }
}

/** A network code, confirmed (or contradicted) by the words beside it. */
function withCode(code: Extract<CodeReading, { kind: 'code' }>, words: ReasonLabelMatch): ReasonLabelMatch {
  const named = `${code.entry.network} ${code.code} "${code.entry.name}"`;
  if (code.entry.reason === undefined) {
    // A broad code (Mastercard 4853) with words that narrow it: the words place it.
    if (words.kind === 'placed') return { ...words, why: `${words.why}, within ${named}` };
    return { kind: 'undecided', why: `${named} covers several reasons (or none): pick the one these disputes are` };
  }
  if (words.kind === 'placed' && words.reason !== code.entry.reason) {
    return {
      kind: 'undecided',
      why: `${named} is ${code.entry.reason}, but its words read as ${words.reason} (${words.why}): pick one`,
    };
  }
  return { kind: 'placed', reason: code.entry.reason, why: named, how: 'code' };
}

function matchWords(label: string): ReasonLabelMatch {
  const words = contentWords(label);
  if (words.length === 0) return { kind: 'unknown' };
  const exact = exactPhrase(words);
  if (exact !== undefined) return exact;
  const weights = words.map((word) => wordWeight(word.stem));
  const scored = disputeReasons
    .map((reason) => scoreReason(reason, words, weights))
    .sort((left, right) => right.score - left.score);
  const [best, second] = scored;
  if (best === undefined || best.score < minimumScore) return { kind: 'unknown' };
  if (second !== undefined && best.score - second.score < minimumLead) {
    return {
      kind: 'undecided',
      why: `reads as ${best.reason} (${describe(best)}) or ${second.reason} (${describe(second)}): pick one`,
    };
  }
  const shared = best.shared.map((word) => `"${word}"`).join(', ');
  const why = `${best.phrase.language} "${best.phrase.written}" = ${reasonGloss[best.reason]}, by the words ${shared} (score ${best.score.toFixed(2)})`;
  return { kind: 'placed', reason: best.reason, why, how: 'words' };
}

/** The same words as a phrase, in any order ("Amount incorrect", "incorrect amount"): placed unless two reasons have them. */
function exactPhrase(words: readonly Word[]): ReasonLabelMatch | undefined {
  const key = sortedKey(words.map((word) => word.stem));
  const found = phrases.filter((phrase) => phrase.key === key);
  const reasons = [...new Set(found.map((phrase) => phrase.reason))];
  const first = found[0];
  if (first === undefined) return undefined;
  if (reasons.length > 1) return { kind: 'undecided', why: `the words of ${reasons.join(' and of ')}: pick one` };
  return {
    kind: 'placed',
    reason: first.reason,
    why: `${first.language} "${first.written}" = ${reasonGloss[first.reason]}`,
    how: 'words',
  };
}

interface ReasonScore {
  readonly reason: DisputeReason;
  readonly score: number;
  readonly phrase: Phrase;
  /** The label's words found in the phrase, as written. */
  readonly shared: readonly string[];
}

function describe(score: ReasonScore): string {
  return `like ${score.phrase.language} "${score.phrase.written}", score ${score.score.toFixed(2)}`;
}

/** How well the best of `labelWords` matches a vocabulary word, or a label word the best of `vocabularyWords`. */
const bestForVocabularyWord = (vocabularyWord: string, labelWords: readonly string[]): number =>
  Math.max(0, ...labelWords.map((labelWord) => similarity(labelWord, vocabularyWord)));
const bestForLabelWord = (labelWord: string, vocabularyWords: Iterable<string>): number => {
  let top = 0;
  for (const vocabularyWord of vocabularyWords) top = Math.max(top, similarity(labelWord, vocabularyWord));
  return top;
};

/**
 * How well a reason reads a label: the share of its best phrase found in the label, and the
 * share of the label found in the reason's words, both weighted, in a harmonic mean (a label
 * that holds a whole phrase and little else scores near 1).
 */
function scoreReason(reason: DisputeReason, words: readonly Word[], weights: readonly number[]): ReasonScore {
  const labelStems = words.map((word) => word.stem);
  let top: { phrase: Phrase; coverage: number } | undefined;
  for (const phrase of phrasesOf.get(reason) ?? []) {
    let total = 0;
    let found = 0;
    for (const stem of phrase.stems) {
      const weight = weightOf.get(stem) ?? unknownWordWeight;
      total += weight;
      found += weight * bestForVocabularyWord(stem, labelStems);
    }
    const coverage = total === 0 ? 0 : found / total;
    if (top === undefined || coverage > top.coverage) top = { phrase, coverage };
  }
  const reasonStems = stemsOf.get(reason) ?? new Set<string>();
  let labelTotal = 0;
  let labelFound = 0;
  const shared: string[] = [];
  for (const [index, word] of words.entries()) {
    const weight = weights[index] ?? unknownWordWeight;
    const found = bestForLabelWord(word.stem, reasonStems);
    labelTotal += weight;
    labelFound += weight * found;
    if (found > 0 && top !== undefined && bestForLabelWord(word.stem, top.phrase.stems) > 0) shared.push(word.written);
  }
  const phraseCoverage = top?.coverage ?? 0;
  const labelCoverage = labelTotal === 0 ? 0 : labelFound / labelTotal;
  const score = labelCoverage ** (2 / 3) * phraseCoverage ** (1 / 3);
  return { reason, score, phrase: top?.phrase ?? (phrases[0] as Phrase), shared };
}

/** A label word's weight: that of the vocabulary's most alike word, or unknownWordWeight. */
function wordWeight(stem: string): number {
  const exact = weightOf.get(stem);
  if (exact !== undefined) return exact;
  let weight = unknownWordWeight;
  let closest = 0;
  for (const other of allStems) {
    const alike = similarity(stem, other);
    if (alike > closest) {
      closest = alike;
      weight = weightOf.get(other) ?? unknownWordWeight;
    }
  }
  return weight;
}
