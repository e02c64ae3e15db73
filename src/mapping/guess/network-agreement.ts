import { networkOfFirstDigits, readCardNumber } from '../../card-numbers/written-forms.js';
import { evaluateField } from '../evaluate-field.js';
import { fieldSpecSchema } from '../field-spec.js';
import { isPlaceholder, type FieldDraft } from './field-draft.js';
import type { ColumnProfile } from './profile.js';
import type { Sample } from './types.js';

/**
 * A card.network field from a network column, checked against the card numbers' first digits on
 * the same rows: the draft says they agree, or flags (CHECK) the rows where the column names
 * another network than the card's issuer range (a co-badged card, a column of another meaning).
 * The field itself is left as it is: the column is what the export says.
 */
export function checkedAgainstCardNumbers(sample: Sample, network: FieldDraft, cards: ColumnProfile): FieldDraft {
  if (isPlaceholder(network) || network.column === cards.column) return network;
  const parsed = fieldSpecSchema.safeParse(network.spec);
  if (!parsed.success) return network;
  let agreeing = 0;
  const agreed = new Set<string>();
  const disagreeing: string[] = [];
  sample.rows.forEach((row, index) => {
    const card = readCardNumber((row[cards.column] ?? '').trim());
    const byDigits = card === undefined ? undefined : networkOfFirstDigits(card);
    const named = evaluateField(parsed.data, { cells: row, resolved: () => undefined });
    if (byDigits === undefined || !named.ok || typeof named.value !== 'string' || named.value === 'TODO') return;
    if (named.value === byDigits) {
      agreeing++;
      agreed.add(byDigits);
    } else
      disagreeing.push(
        `sampled row ${index + 1}: ${JSON.stringify(row[network.column ?? ''] ?? '')} is ${named.value}, but ` +
          `${card?.firstDigits.slice(0, 6) ?? ''}… (${card?.length ?? 0} digits) is ${byDigits}`,
      );
  });
  const compared = agreeing + disagreeing.length;
  if (compared === 0) return network;
  const source = `the first digits of the card numbers in ${JSON.stringify(cards.column)}`;
  if (disagreeing.length === 0)
    return {
      ...network,
      evidence: [
        ...network.evidence,
        `${source} agree on all ${compared} sampled rows that show them (${[...agreed].join(', ')})`,
      ],
    };
  const shown = disagreeing.slice(0, 3).join('; ');
  return {
    ...network,
    confidence: 'medium',
    check: [
      ...(network.check === undefined ? [] : [network.check]),
      `${source} name another network on ${disagreeing.length} of ${compared} sampled rows (${shown}` +
        `${disagreeing.length > 3 ? '; …' : ''}): is ${JSON.stringify(network.column)} the card's network?`,
    ].join('; '),
  };
}
