import { describe, expect, it } from 'vitest';
import { caseAsSent, caseChanges, mappingFieldOf } from '../../src/import/claim/case-changes.js';

/** What a fed-back row changes in a case the service holds, decided without a request. */

const shared = {
  card: { last4: '4417', network: 'visa', type: 'credit' },
  cardholder: { name: 'Maya Lindqvist', email: 'maya@example.com' },
  dispute: { reason: 'fraud', raised_by: 'cardholder', date: '2026-11-20T00:00:00.000Z' },
  issuer_evidence: { card: { is_active: false }, fraud: { was_reported: true }, documentation: ['file_1'] },
};
const caseBody = {
  dispute: { amount: 84999, currency: 'USD' },
  merchant: { name: 'Larkspur Electronics', category_code: '5732' },
  transaction: { amount: 84999, currency: 'USD', date: '2026-11-15T00:00:00.000Z', arn: '74492156302000184700001' },
  custom_fields: { ref: 'D-1' },
};

/** What the sandbox keeps of that new_claim (handlers/claims.ts): shared fields spread into the case. */
const held = {
  case_id: 'CLM-D-1-1',
  claim_id: 'CLM-D-1',
  status: 'created',
  created: '2026-11-25T10:00:00.000Z',
  program_id: null,
  reason: 'fraud',
  custom_fields: { ref: 'D-1' },
  cardholder: { name: 'Maya Lindqvist', email: 'maya@example.com' },
  dispute: { amount: 84999, currency: 'USD', date: '2026-11-20T00:00:00Z', raised_by: 'cardholder', reason: 'fraud' },
  merchant: { name: 'Larkspur Electronics', category_code: '5732' },
  transaction: {
    amount: 84999,
    currency: 'USD',
    date: '2026-11-15T00:00:00Z',
    arn: '74492156302000184700001',
    card: { last4: '4417', network: 'visa', type: 'credit' },
  },
  issuer_evidence: { card: { is_active: false }, fraud: { was_reported: true }, documentation: ['file_1'] },
};

describe('caseChanges', () => {
  it('nothing changed: no fields, an empty update (times compared as instants, documentation left to the evidence step)', () => {
    expect(caseChanges(caseAsSent(shared, caseBody), held)).toEqual({ changes: [], update: {} });
  });

  it('the measured fix: card cancelled and fraud reported become a minimal nested update, named as the mapping names them', () => {
    const before = {
      ...held,
      issuer_evidence: { card: { is_active: true }, fraud: { was_reported: false }, documentation: ['file_1'] },
    };
    const result = caseChanges(caseAsSent(shared, caseBody), before);
    expect(result.changes).toEqual([
      { caseField: 'issuer_evidence.card.is_active', mappingField: 'shared.issuer_evidence.card.is_active' },
      { caseField: 'issuer_evidence.fraud.was_reported', mappingField: 'shared.issuer_evidence.fraud.was_reported' },
    ]);
    expect(result.update).toEqual({ issuer_evidence: { card: { is_active: false }, fraud: { was_reported: true } } });
  });

  it('fields the service lacks are changes; fields left blank are not (an update cannot clear them)', () => {
    const { cardholder: _cardholder, ...withoutCardholder } = held;
    const result = caseChanges(
      caseAsSent({ ...shared, cardholder: { name: 'Maya Lindqvist', email: undefined } }, caseBody),
      withoutCardholder,
    );
    expect(result.update).toEqual({ cardholder: { name: 'Maya Lindqvist' } });
    expect(result.changes.map((change) => change.mappingField)).toEqual(['shared.cardholder.name']);
  });

  it("shared card, dispute date and reason live inside each case; the case's own fields under case.", () => {
    const edited = caseAsSent(
      {
        ...shared,
        card: { ...shared.card, last4: '0417' },
        dispute: { ...shared.dispute, date: '2026-11-21T00:00:00.000Z' },
      },
      { ...caseBody, dispute: { amount: 5000, currency: 'USD' }, custom_fields: { ref: 'D-1', desk: 'b' } },
    );
    const result = caseChanges(edited, held);
    expect(result.changes.map((change) => change.mappingField)).toEqual([
      'custom_fields.desk',
      'case.dispute.amount',
      'shared.dispute.date',
      'shared.card.last4',
    ]);
    expect(result.update).toEqual({
      custom_fields: { desk: 'b' },
      dispute: { amount: 5000, date: '2026-11-21T00:00:00.000Z' },
      transaction: { card: { last4: '0417' } },
    });
  });

  it.each([
    [['transaction', 'card', 'last4'], 'shared.card.last4'],
    [['transaction', 'arn'], 'case.transaction.arn'],
    [['dispute', 'reason'], 'shared.dispute.reason'],
    [['dispute', 'amount'], 'case.dispute.amount'],
    [['merchant', 'category_code'], 'case.merchant.category_code'],
    [['issuer_evidence', 'card', 'is_active'], 'shared.issuer_evidence.card.is_active'],
    [['custom_fields', 'ref'], 'custom_fields.ref'],
    [['program_id'], 'case.program_id'],
  ])('%j is the mapping field %s', (path, field) => {
    expect(mappingFieldOf(path)).toBe(field);
  });
});
