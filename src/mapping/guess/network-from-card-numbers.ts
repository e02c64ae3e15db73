import { cardNetworks } from '../../api/schemas/known-values.js';
import { networkOfFirstDigits, readCardNumber } from '../../card-numbers/written-forms.js';
import { placeholder, type FieldDraft } from './field-draft.js';
import type { ColumnProfile } from './profile.js';

/**
 * card.network from the first digits of a card-number column, for an export with no network column
 * (docs/mappings.md, "Card numbers masked by the bank"). A mapping has no step that reads issuer
 * ranges, but it can take a masked number's first digits (`split` on the mask character, part 0)
 * and map them through an `enum`: one entry per first digits seen in the sample, each placed in its
 * network's issuer range. A card whose first digits the sample did not show is then refused
 * (`enum_unmapped`) rather than sent under another card's network: the CHECK says so.
 */
export function networkFromCardNumbers(profile: ColumnProfile): FieldDraft | undefined {
  const cards = profile.values.map((value) => ({ value, card: readCardNumber(value) }));
  const shown = cards.filter(({ card }) => card?.form === 'masked' && card.firstDigits.length >= 4);
  // Only last fours (or too few first digits): nothing tells the network, the usual TODO stays.
  if (shown.length === 0) return undefined;
  const column = profile.column;
  const masks = [...new Set(shown.map(({ card }) => card?.mask ?? ''))];
  const byFirstDigits = new Map<string, { count: number; length: number; networks: Set<string> }>();
  // Counted as cards, one a distinct cell: the rows of one dispute repeat its card.
  const distinct = [...new Map(shown.map((cell) => [cell.value, cell])).values()];
  for (const { value, card } of distinct) {
    // What the mapping's split takes, trimmed as split's part is: the digits before the mask, groups kept.
    const key = (value.split(card?.mask ?? '')[0] ?? '').trim();
    const entry = byFirstDigits.get(key) ?? { count: 0, length: card?.length ?? 0, networks: new Set<string>() };
    entry.count++;
    entry.networks.add(card === undefined ? '' : (networkOfFirstDigits(card) ?? ''));
    byFirstDigits.set(key, entry);
  }
  const unread = profile.values.length - shown.length;
  const seen = describeSeen(
    byFirstDigits,
    distinct.length,
    unread === 0 ? 'sampled cards' : 'cards showing first digits',
  );
  const evidence = [
    `no card network column: the first digits of the card numbers in ${JSON.stringify(column)}, placed in the ` +
      "card networks' issuer ranges",
    seen,
    'only the network is sent: the first digits pick an enum entry and are not sent themselves',
  ];
  if (masks.length > 1 || unread > 0) {
    const why =
      masks.length > 1
        ? `the cells mask with ${masks.map((mask) => JSON.stringify(mask)).join(' and ')}, which one split cannot take apart`
        : `${unread} of ${profile.values.length} sampled cells show none`;
    return placeholder(
      'shared',
      'card.network',
      `column ${JSON.stringify(column)}: ${seen}, but ${why}: write card.network's column, or a constant when ` +
        'every card is one network',
      evidence,
      undefined,
      column,
    );
  }
  const table: Record<string, string> = {};
  const unknown: string[] = [];
  // Networks the service does not take (Maestro, JCB, Diners, UnionPay): which of its four carries them is the issuer's to say.
  const notTaken: Record<string, string> = {};
  for (const [key, { networks }] of byFirstDigits) {
    const [network = ''] = networks;
    const known = networks.size === 1 && network !== '';
    const taken = known && (cardNetworks as readonly string[]).includes(network);
    table[key] = taken ? network : 'TODO';
    if (taken) continue;
    unknown.push(key);
    if (known) notTaken[key] = `${network} by its first digits: the service takes ${cardNetworks.join(', ')}`;
  }
  const field: FieldDraft = {
    section: 'shared',
    target: 'card.network',
    column,
    spec: { column, required: true, split: { separator: masks[0] ?? '', index: 0 }, enum: table },
    confidence: 'medium',
    evidence,
    check:
      `card.network from the first digits of ${JSON.stringify(column)}: ${seen}; a card whose first digits are ` +
      'not in this enum is refused (enum_unmapped) until its network is added',
  };
  if (unknown.length === 0) return field;
  return {
    ...field,
    ...(Object.keys(notTaken).length === 0 ? {} : { entryNotes: notTaken }),
    todo:
      `column ${JSON.stringify(column)}: write the card.network value of ${unknown.map((key) => JSON.stringify(key)).join(', ')} ` +
      "in its enum (first digits in no issuer range of the service's networks, at the length of their cards)",
  };
}

/** "all 12 sampled cards start 546604 (16 digits): mastercard", or each first digits with its count. */
function describeSeen(
  byFirstDigits: ReadonlyMap<string, { count: number; length: number; networks: ReadonlySet<string> }>,
  cards: number,
  subject: string,
): string {
  const networkOf = (networks: ReadonlySet<string>) =>
    [...networks].map((network) => (network === '' ? 'no network' : network)).join(' or ');
  const entries = [...byFirstDigits];
  const [only] = entries;
  if (entries.length === 1 && only !== undefined)
    return `${cards === 1 ? `the one ${subject.replace('cards', 'card')} starts` : `all ${cards} ${subject} start`} ${only[0]} (${only[1].length} digits): ${networkOf(only[1].networks)}`;
  const shown = entries
    .sort(([, left], [, right]) => right.count - left.count)
    .map(([key, { count, length, networks }]) => `${key} (${count}, ${length} digits): ${networkOf(networks)}`);
  return `${cards} ${subject} start ${shown.join('; ')}`;
}
