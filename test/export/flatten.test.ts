import { describe, expect, test } from 'vitest';
import { unknownColumns } from '../../src/export/columns.js';
import { cellText, flatten } from '../../src/export/flatten.js';

describe('flatten', () => {
  test('nested objects become dot-path columns', () => {
    expect(
      flatten({ case_id: 'c1', dispute: { reason: 'fraud', amount: 1000 }, transaction: { card: { last4: '4242' } } }),
    ).toEqual({
      case_id: 'c1',
      'dispute.reason': 'fraud',
      'dispute.amount': '1000',
      'transaction.card.last4': '4242',
    });
  });

  test('arrays of scalars are joined with ";", arrays of objects are JSON text', () => {
    expect(flatten({ tags: ['a', 'b', 3, true], cases: [{ case_id: 'c1' }, { case_id: 'c2' }] })).toEqual({
      tags: 'a;b;3;true',
      cases: '[{"case_id":"c1"},{"case_id":"c2"}]',
    });
  });

  test('nulls, undefined and empty objects give no column (an empty cell)', () => {
    expect(
      flatten({ closed_reason: null, program_id: undefined, custom_fields: {}, review: { status: null }, empty: [] }),
    ).toEqual({ empty: '' });
    expect(cellText(null)).toBe('');
    expect(cellText(false)).toBe('false');
  });
});

describe('unknownColumns', () => {
  test('documented paths, records below them, and nothing else are known', () => {
    expect(
      unknownColumns('cases', ['case_id', 'transaction.card.last4', 'custom_fields.ref', 'dispute.reasn']),
    ).toEqual(['dispute.reasn']);
    expect(unknownColumns('events', ['event_id', 'data.case_id'])).toEqual([]);
  });
});
