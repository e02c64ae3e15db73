import { dutch } from './dutch.js';
import { english } from './english.js';
import { french } from './french.js';
import { german } from './german.js';
import { italian } from './italian.js';
import { portuguese } from './portuguese.js';
import { spanish } from './spanish.js';
import type { LanguageVocabulary } from './types.js';

/**
 * Every language `mapping guess` knows, in the order their header names are tried: a name two
 * languages share keeps the first language's role.
 */
export const vocabularies: readonly LanguageVocabulary[] = [
  english,
  german,
  french,
  spanish,
  italian,
  dutch,
  portuguese,
];

export { issuerAbbreviations, networkCodes, wholeLabelCodes, type NetworkCode } from './network-codes.js';
export type { DisputeReason, HeaderRole, Language, LanguageVocabulary } from './types.js';
