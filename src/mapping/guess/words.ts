import { vocabularies } from './vocabulary/index.js';

/**
 * Words as `mapping guess` compares them: case, accents, punctuation, plural and spelling variants
 * folded, so "Marchandises non reçues", "MARCHANDISE NON RECUE" and "marchandise non-reçue" are the
 * same three words.
 */

/** Lower case, accents and ß folded, every run of other characters one space: "Währung (ISO)" → "wahrung iso". */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/œ/gi, 'oe')
    .replace(/æ/gi, 'ae')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Articles, prepositions and conjunctions of every language: they tell no reason or column apart. */
export const stopWords: ReadonlySet<string> = new Set(
  vocabularies.flatMap((vocabulary) => vocabulary.stopWords.map(foldText)),
);

/**
 * A folded word's stem: doubled letters single ("cancelled", "canceled"), British -ise as -ize
 * ("authorised", "authorized"), a plural s dropped.
 */
export function stem(word: string): string {
  const single = word.replace(/([a-z])\1+/g, '$1').replace(/is(?=[ae])/g, 'iz');
  return single.length > 4 && single.endsWith('s') ? single.slice(0, -1) : single;
}

/** A word of a label with its stem, for comparing, and as written, for explaining. */
export interface Word {
  readonly written: string;
  readonly stem: string;
}

/** The words of a text that carry meaning, in order. */
export function contentWords(text: string): Word[] {
  return text
    .split(/[^\p{L}\p{N}]+/u)
    .map((written) => ({ written, folded: foldText(written) }))
    .flatMap(({ written, folded }) => folded.split(' ').map((part) => ({ written, folded: part })))
    .filter(({ folded }) => folded !== '' && !stopWords.has(folded))
    .map(({ written, folded }) => ({ written, stem: stem(folded) }));
}

/** Negations long enough to be glued onto a word ("nichterhalten"); "un-", "non-" are too short to count as glue. */
const negations = new Set(['nicht', 'niet', 'kein', 'keine', 'geen']);

/**
 * How alike a label's word is to a vocabulary word, from 0 to 1: the same word (1); the same
 * word in another ending or language, "ricevuto" and "ricevuta", "canceled" and "cancelado"
 * (0.9); the vocabulary word glued into the label's as in compounds, "missbrauch" in
 * "kartenmissbrauch" (0.8), when the glue is a word of four letters or more and no negation
 * ("unauthorised" is not "authorised"). Not the other way round: "Zahlung" is not "Auszahlung",
 * a cash withdrawal.
 */
export function similarity(labelWord: string, vocabularyWord: string): number {
  if (labelWord === vocabularyWord) return 1;
  let prefix = 0;
  while (prefix < labelWord.length && prefix < vocabularyWord.length && labelWord[prefix] === vocabularyWord[prefix])
    prefix++;
  const tail = Math.max(labelWord.length, vocabularyWord.length) - prefix;
  // Short words need all but their last letter shared: "Betrag" (amount) is not "Betrug" (fraud).
  const shortTail = Math.min(labelWord.length, vocabularyWord.length) - prefix;
  if ((prefix >= 4 && tail <= 2 && shortTail <= 1) || (prefix >= 6 && tail <= 3)) return 0.9;
  if (vocabularyWord.length < 5 || labelWord.length - vocabularyWord.length < 4) return 0;
  const at = labelWord.indexOf(vocabularyWord);
  if (at < 0) return 0;
  const rest = at === 0 ? labelWord.slice(vocabularyWord.length) : labelWord.slice(0, at);
  return negations.has(rest) ? 0 : 0.8;
}
