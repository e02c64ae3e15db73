import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { perFileSequence } from '../../../src/mapping/guess/claim-key.js';
import type { Draft } from '../../../src/mapping/guess/guess-mapping.js';
import type { Sample } from '../../../src/mapping/guess/types.js';
import { parseMapping } from '../../../src/mapping/load.js';
import { guessSample, sampleOf } from './guess-sample.js';

const guess = (sample: Sample): Draft => guessSample(sample);

/**
 * A claim key that restarts in every file (1, 2, 3 …) gives the next file's claims this file's
 * ids. `mapping guess` says so, with what to do about it.
 */

const numbers = (first: number, last: number) =>
  Array.from({ length: last - first + 1 }, (_, index) => String(first + index));

describe('perFileSequence', () => {
  it('a run of small numbers from 1 is a per-file sequence, in any order, with gaps or repeats', () => {
    expect(perFileSequence(numbers(1, 50), 50)).toEqual({ first: 1, last: 50 });
    expect(perFileSequence(['3', '1', '2', '2', '7'], 5)).toEqual({ first: 1, last: 7 });
    expect(perFileSequence(numbers(0, 9), 10)).toEqual({ first: 0, last: 9 });
    // Zero-padded counters too.
    expect(perFileSequence(['0001', '0002', '0003'], 3)).toEqual({ first: 1, last: 3 });
  });

  it.each([
    ['a letter-prefixed reference', ['D0000123', 'D0000124', 'D0000125']],
    ['a reference with its year', ['ACME-2026-000123', 'ACME-2026-000124']],
    ['numbers that do not start at 1', numbers(1000, 1049)],
    ['a numeric reference', ['2026000123', '2026000124', '2026000125']],
    ['numbers from 1 spread far wider than the rows', ['1', '2', '900']],
    ['nothing', []],
  ])('%s is not', (_name, values) => {
    expect(perFileSequence(values, values.length)).toBeUndefined();
  });
});

const arn = (n: number) => `74492156302000184${String(n).padStart(6, '0')}`;
const exportWithKey = (keys: string[]) =>
  sampleOf(
    ['Dispute No', 'card_network', 'card_last4', 'currency', 'transaction_amount', 'transaction_date', 'arn'],
    keys.map((key, index) => [key, 'VISA', '4417', 'EUR', '12.50', '2026-03-15', arn(index)]),
  );

describe('mapping guess on a per-file sequence key', () => {
  it('warns (a CHECK on claim.key) that the key restarts in every file, with a commented id_prefix hint', () => {
    const draft = guess(exportWithKey(numbers(1, 12)));
    const keyCheck = draft.checks.find((check) => check.message.includes('per-file sequence'));
    expect(keyCheck).toMatchObject({ field: 'claim.key' });
    expect(keyCheck?.message).toBe(
      '"Dispute No" looks like a per-file sequence (1 to 12) that restarts in every file, so two files\' claims would meet at one claim id: key on a column unique across files (or add one that tells files apart, e.g. a batch date), or give each file its own claim.id_prefix (below)',
    );
    const lines = draft.yaml.split('\n');
    expect(lines[(keyCheck?.line ?? 0) - 1]).toBe(`  # CHECK: ${keyCheck?.message ?? ''}`);
    expect(lines).toContain(
      "  # id_prefix: SOURCE-2026-03  (this file's own name, e.g. source and date: the same for every re-run of this file, another for the next file)",
    );
    // The hint is a comment: the draft lints as it is, and with the hint uncommented.
    expect(parseMapping(draft.yaml, 'draft.yaml').claim).toMatchObject({ key: ['Dispute No'] });
    expect(
      parseMapping(draft.yaml.replace('# id_prefix: SOURCE-2026-03  (', 'id_prefix: SOURCE-2026-03  # ('), 'draft.yaml')
        .claim.id_prefix,
    ).toBe('SOURCE-2026-03');
  });

  it.each([
    ['D0000123', (n: number) => `D${String(123 + n).padStart(7, '0')}`],
    ['ACME-2026-000123', (n: number) => `ACME-2026-${String(123 + n).padStart(6, '0')}`],
  ])('says nothing of a real reference like %s', (_example, reference) => {
    const draft = guess(exportWithKey(Array.from({ length: 12 }, (_, index) => reference(index))));
    expect((parseDocument(draft.yaml).toJS() as { claim: { key: string[] } }).claim.key).toEqual(['Dispute No']);
    expect(draft.checks.filter((check) => check.message.includes('per-file sequence'))).toEqual([]);
    expect(draft.yaml).not.toContain('id_prefix');
  });
});
