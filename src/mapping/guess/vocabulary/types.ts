import type { disputeReasons } from '../../../api/schemas/known-values.js';

/**
 * The shape of one language's vocabulary for `mapping guess`: the header names issuers give their
 * columns, and the words they use for a dispute's reason. Data only; header-names.ts and
 * reason-labels.ts do the matching.
 */

export type Language = 'English' | 'French' | 'German' | 'Spanish' | 'Italian' | 'Dutch' | 'Portuguese';

export type DisputeReason = (typeof disputeReasons)[number];

/**
 * What a column holds: a new_claim target, or one of the roles a mapping places elsewhere:
 * `claim_key` (the dispute reference rows share), `case_id`, `expiry` (one `MM/YY` cell for two
 * targets), `evidence` (file paths) and `card_number` (the full card number: cardholder data, of
 * which only the last four digits are mapped).
 */
export type HeaderRole = string;

export interface LanguageVocabulary {
  readonly language: Language;
  /**
   * Whole header names by role, written as a person reads them (accents and apostrophes are
   * folded before matching, and little words such as "de", "of", "der" are ignored).
   */
  readonly headers: Readonly<Partial<Record<HeaderRole, readonly string[]>>>;
  /** Words that name a role inside a longer header ("Betrag in EUR"); tried in keywordOrder. */
  readonly headerWords: Readonly<Partial<Record<HeaderRole, readonly string[]>>>;
  /** Whether words are glued into compounds ("Umsatzbetrag"), so a word may sit inside a header word. */
  readonly compounds: boolean;
  /** How issuers of this language label each reason: network plain names, back-office wording. */
  readonly reasons: Readonly<Partial<Record<DisputeReason, readonly string[]>>>;
  /** Words that carry no meaning in a label or header: articles, prepositions. */
  readonly stopWords: readonly string[];
}
