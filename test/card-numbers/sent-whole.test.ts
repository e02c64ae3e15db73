import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { columnsSentWhole } from '../../src/mapping/card-number-columns.js';
import { parseMapping } from '../../src/mapping/load.js';

/**
 * Which columns' masking can change what the import sends, so that a row whose card number sits
 * elsewhere is mapped once: a field reads them whole (column or template), or they are the claim
 * key's or evidence. Not a column no field reads, nor one read through `last4`.
 */

const mappingFile = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));
const generic = readFileSync(mappingFile, 'utf8');

it('names the key, the fields read whole and the evidence columns; not an unread column or one read through last4', () => {
  const mapping = parseMapping(
    generic
      .replace('card.last4: { column: card_last4, required: true }', 'card.last4: { column: card_number, last4: true }')
      .replace('id: { template: "CLM-{dispute_ref}" }', 'id: { template: "CLM-{dispute_ref}-{branch}" }'),
    mappingFile,
  );
  const header = ['dispute_ref', 'card_number', 'cardholder_statement', 'receipt_file', 'branch', 'unread'];
  const sent = columnsSentWhole(mapping, header).map((index) => header[index]);
  expect(sent).toEqual(expect.arrayContaining(['dispute_ref', 'cardholder_statement', 'receipt_file', 'branch']));
  expect(sent).not.toContain('card_number');
  expect(sent).not.toContain('unread');
});
