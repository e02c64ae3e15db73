import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mappingJsonSchema, mappingJsonSchemaPath } from '../../src/mapping/json-schema.js';
import { loadMapping, MappingError, parseMapping } from '../../src/mapping/load.js';
import { caseTargets, sharedTargets } from '../../src/mapping/targets.js';

const genericPath = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));

/** The generic mapping with one line replaced: errors must point at that line. */
async function genericWith(find: string, replace: string): Promise<string> {
  const text = await readFile(genericPath, 'utf8');
  if (!text.includes(find)) throw new Error(`fixture: ${find} not in generic.yaml`);
  return text.replace(find, replace);
}

function issuesOf(text: string): MappingError['issues'] {
  try {
    parseMapping(text, 'm.yaml');
  } catch (error) {
    if (error instanceof MappingError) return error.issues;
    throw error;
  }
  throw new Error('expected a MappingError, got none');
}

function lineOf(text: string, fragment: string): number {
  return text.split('\n').findIndex((line) => line.includes(fragment)) + 1;
}

describe('mapping files', () => {
  it('the bundled generic mapping is valid, with its defaults filled in', async () => {
    const mapping = await loadMapping(genericPath);
    expect(mapping.claim.key).toEqual(['dispute_ref']);
    expect(mapping.shared['dispute.reason']).toMatchObject({
      column: 'reason_code',
      required: true,
      trim: true,
      type: 'string',
    });
    expect(mapping.case['dispute.amount']).toMatchObject({
      type: 'amount',
      amount: { currency_field: 'dispute.currency', decimal_separator: '.', group_separator: '' },
    });
    expect(mapping.csv).toMatchObject({ delimiter: ',', header: true });
    expect(mapping.file_mode).toBe('auto');
  });

  it.each([
    [
      'an unknown target',
      'card.last4: { column: card_last4, required: true }',
      'card.lastfour: { column: card_last4, required: true }',
      'shared.card.lastfour',
      'card.lastfour',
    ],
    [
      'two sources',
      'cardholder.type: { constant: individual }',
      'cardholder.type: { constant: individual, column: kind }',
      'shared.cardholder.type',
      'cardholder.type',
    ],
    [
      'type amount without its section',
      'merchant.name: { column: merchant_name }',
      'merchant.name: { column: merchant_name, type: amount }',
      'case.merchant.name.amount',
      'merchant.name',
    ],
    ['a file mode that does not exist', 'file_mode: auto', 'file_mode: later', 'file_mode', 'file_mode'],
    [
      'an evidence category that does not exist',
      'category: transaction_receipt }',
      'category: receipt }',
      'evidence.0.category',
      'category: receipt',
    ],
    ['an unknown section', 'file_mode: auto', 'file_mode: auto\nfilemode: auto', 'filemode', 'filemode'],
  ])('%s: names the file, the field and the line', async (_name, find, replace, field, lineFragment) => {
    const text = await genericWith(find, replace);
    const issue = issuesOf(text).find((candidate) => candidate.field === field);
    expect(issue, JSON.stringify(issuesOf(text))).toBeDefined();
    expect(issue?.line).toBe(lineOf(text, lineFragment));
    expect(issue?.message).toMatch(/expected/);
  });

  it('a mapping that leaves out what new_claim needs is refused before anything is read', async () => {
    const text = (await genericWith('  card.last4: { column: card_last4, required: true }\n', '')).replace(
      '  transaction.arn: { column: arn, required: true }\n',
      '',
    );
    const messages = issuesOf(text).map((issue) => `${issue.field}: ${issue.message}`);
    expect(messages).toContain('shared: expected a source for card.last4 (new_claim needs it), got none');
    expect(messages).toContain('case: expected a source for transaction.arn or a switch_serial_number, got none');
  });

  it('reports YAML syntax errors with their line, and an unreadable file', async () => {
    const issues = issuesOf('claim:\n  key: [a\nshared: {}\n');
    expect(issues[0]?.line).toBeGreaterThan(0);
    expect(issues[0]?.message).toMatch(/^expected YAML or JSON, got /);
    await expect(loadMapping('/nonexistent/m.yaml')).rejects.toThrow(
      '/nonexistent/m.yaml: expected a readable mapping file, got ENOENT',
    );
  });

  it('reads JSON mappings too', async () => {
    const mapping = await loadMapping(genericPath);
    expect(parseMapping(JSON.stringify(mapping), 'm.json')).toEqual(mapping);
  });
});

describe('targets come from the wire schemas', () => {
  it('offer every new_claim field a row can fill, and none that are filled elsewhere', () => {
    expect(sharedTargets).toEqual(
      expect.arrayContaining([
        'card.last4',
        'dispute.reason',
        'issuer_evidence.fraud.was_reported',
        'cardholder.billing_address.postal_code',
      ]),
    );
    expect(caseTargets).toEqual(
      expect.arrayContaining([
        'transaction.arn',
        'dispute.amount',
        'transaction.network_details.mastercard.switch_serial_number',
      ]),
    );
    expect(
      [...sharedTargets, ...caseTargets].filter((target) =>
        /^(claim_id|cases|reason)$|documentation|^transaction\.card|custom_fields/.test(target),
      ),
    ).toEqual([]);
  });
});

describe('the committed JSON Schema', () => {
  it('matches the zod schema (regenerate: npm run build && npm run mapping-schema)', async () => {
    expect(await readFile(mappingJsonSchemaPath, 'utf8')).toBe(mappingJsonSchema());
  });
});
