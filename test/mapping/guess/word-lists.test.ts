import { describe, expect, it } from 'vitest';
import { vocabularies } from '../../../src/mapping/guess/vocabulary/index.js';
import { namesByRole, namesOf, wordsOf } from '../../../src/mapping/guess/vocabulary/word-lists.js';

describe('a vocabulary written as a table of its words', () => {
  it('reads a line of names separated by commas, in order, each trimmed', () => {
    expect(namesOf('dispute ref, dispute reference,dispute * amount')).toEqual([
      'dispute ref',
      'dispute reference',
      'dispute * amount',
    ]);
  });

  it('refuses a stray comma rather than making an empty name every header would contain', () => {
    expect(() => namesOf('montant, ')).toThrow('expected names separated by commas, got "montant, "');
    expect(() => namesOf('montant,, devise')).toThrow(/expected names separated by commas/);
  });

  it('keeps the roles in the order the table writes them', () => {
    const table = namesByRole({ deadline: 'frist', 'dispute.amount': 'betrag, strittig', card_number: 'pan' });
    expect(Object.keys(table)).toEqual(['deadline', 'dispute.amount', 'card_number']);
    expect(table['dispute.amount']).toEqual(['betrag', 'strittig']);
  });

  it('reads stop words separated by spaces, however many', () => {
    expect(wordsOf(' le  la les ')).toEqual(['le', 'la', 'les']);
  });

  it('gives every language names with no blank or padded entry', () => {
    for (const { language, headers, headerWords, stopWords } of vocabularies) {
      const names = [...Object.values(headers), ...Object.values(headerWords)].flat();
      for (const name of [...names, ...stopWords]) expect(name, language).toMatch(/^\S(.*\S)?$/);
    }
  });
});
