import type { fileCategories } from '../../api/schemas/known-values.js';
import { mostly } from './classify-scalars.js';
import { normaliseHeader } from './header-names.js';
import type { ColumnProfile } from './profile.js';
import type { Confidence } from './types.js';

export interface EvidenceDraft {
  readonly column: string;
  readonly category: (typeof fileCategories)[number];
  readonly separator: string | undefined;
  readonly confidence: Confidence;
  readonly evidence: string;
  readonly check?: string;
}

const fileName = /\.(pdf|png|jpe?g)$/i;
const separators = [';', '|', ','] as const;

/** Header words that tell the category; anything else is `other`, to be checked. */
const categoryWords: readonly { words: readonly string[]; category: EvidenceDraft['category'] }[] = [
  {
    words: ['receipt', 'beleg', 'quittung', 'justificatif', 'recu', 'comprobante', 'ticket'],
    category: 'transaction_receipt',
  },
  {
    words: ['correspondence', 'korrespondenz', 'schriftverkehr', 'correspondance', 'correspondencia', 'mail'],
    category: 'merchant_correspondence',
  },
  { words: ['refund', 'erstattung', 'remboursement', 'reembolso'], category: 'refund_promise' },
];

/**
 * Evidence columns: those whose header names files, and any other column whose cells are paths
 * of PDF, PNG or JPEG files. Several paths in a cell are split on the separator found.
 */
export function evidenceEntries(named: readonly ColumnProfile[], others: readonly ColumnProfile[]): EvidenceDraft[] {
  const byValues = others.filter(
    (profile) =>
      !named.includes(profile) &&
      profile.values.length > 0 &&
      mostly(profile.values, (value) => value.split(/[;|,]/).every((part) => fileName.test(part.trim()))),
  );
  return [...named, ...byValues]
    .filter((profile) => profile.values.length > 0)
    .map((profile) => {
      const separator = separators.find((candidate) =>
        profile.values.some((value) => value.split(candidate).filter((part) => fileName.test(part.trim())).length > 1),
      );
      const normalised = normaliseHeader(profile.column).replace(/ /g, '');
      const category = categoryWords.find(({ words }) => words.some((word) => normalised.includes(word)))?.category;
      const how = named.includes(profile) ? 'the header names files' : 'the cells are PDF, PNG or JPEG paths';
      const example = JSON.stringify(profile.values[0] ?? '');
      return {
        column: profile.column,
        category: category ?? 'other',
        separator,
        confidence: category === undefined ? 'low' : 'medium',
        evidence:
          `column ${JSON.stringify(profile.column)}: ${how}, e.g. ` +
          `${example}${separator === undefined ? '' : `, several separated by ${JSON.stringify(separator)}`}`,
        ...(category === undefined
          ? {
              check:
                `category of ${JSON.stringify(profile.column)}: other was written; pick the one that fits ` +
                `(transaction_receipt, merchant_correspondence, refund_promise, …)`,
            }
          : {}),
      };
    });
}
