import { describe, expect, it } from 'vitest';
import { caseSchema, v1CaseSchema } from '../../src/api/schemas/index.js';
import { recentDate, startTestSandbox } from '../helpers/sandbox.js';

function v1Case(caseId: string, extra: Record<string, unknown> = {}) {
  return {
    case_id: caseId,
    cardholder: { name: 'Grace Hopper', type: 'individual' as const },
    dispute: { amount: 2599, currency: 'EUR', date: recentDate },
    merchant: { name: 'Bookshop', category_code: '5942' },
    reason: 'duplicate' as const,
    transaction: {
      amount: 2599,
      currency: 'EUR',
      date: recentDate,
      switch_serial_number: 'SSN-0001',
      card_last4: '5454',
      card_expiry_month: 3,
      card_expiry_year: 2030,
      card_network: 'mastercard' as const,
      card_type: 'debit' as const,
      system: 'single_message' as const,
    },
    issuer_evidence: {
      cardholder_message: 'charged twice',
      explanation: 'two identical captures',
      card: { active: true },
      refund: { promised: false },
    },
    custom_fields: { dispute_ref: 'REF-1' },
    ...extra,
  };
}

describe('version 1 cases', () => {
  it('creates a v1 case and returns it in the v1 shape', async () => {
    const { client } = await startTestSandbox();
    const created = await client.v1.cases.create(v1Case('case_v1_a'));
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      case_id: 'case_v1_a',
      status: 'created',
      reason: 'duplicate',
      chargeback_due_date: expect.any(String) as unknown,
    });
    expect(v1CaseSchema.safeParse(created.data).error?.issues ?? []).toEqual([]);
  });

  it('lists v1 cases with the status filter, and refuses an unknown status', async () => {
    const { client, request } = await startTestSandbox();
    await client.v1.cases.create(v1Case('case_v1_a'));
    await client.v1.cases.create(v1Case('case_v1_b'));
    expect((await client.v1.cases.list({ status: 'created' })).data.data.map((item) => item.case_id)).toEqual([
      'case_v1_b',
      'case_v1_a',
    ]);
    expect((await client.v1.cases.list({ status: 'won' })).data.data).toEqual([]);
    expect(await request('GET', '/v1/issuer/cases?status=pending')).toMatchObject({
      status: 400,
      body: { errors: [{ details: { field: 'status' } }] },
    });
  });

  it('shows a v1 case in the v2 shape through the v2 endpoints', async () => {
    const { client } = await startTestSandbox();
    await client.v1.cases.create(v1Case('case_v1_a'));
    const { data } = await client.cases.retrieve('case_v1_a');
    expect(data).toMatchObject({
      case_id: 'case_v1_a',
      reason: 'duplicate_charge',
      dispute: { amount: 2599, currency: 'EUR', reason: 'duplicate_charge' },
      transaction: {
        card: { last4: '5454', network: 'mastercard', type: 'debit' },
        network_details: { mastercard: { switch_serial_number: 'SSN-0001' } },
      },
      issuer_evidence: {
        cardholder_explanation: 'charged twice',
        issuer_explanation: 'two identical captures',
        card: { is_active: true },
        refund: { was_promised: false },
      },
    });
    expect(caseSchema.safeParse(data).error?.issues ?? []).toEqual([]);
  });

  it('lets v1 cases be claimed by a v2 claim, once', async () => {
    const { client } = await startTestSandbox();
    await client.v1.cases.create(v1Case('case_v1_a'));
    await client.v1.cases.create(v1Case('case_v1_b'));
    const claim = await client.claims.create({ claim_id: 'claim_from_v1', case_ids: ['case_v1_a', 'case_v1_b'] });
    expect(claim).toMatchObject({
      status: 201,
      data: { claim_id: 'claim_from_v1', status: 'open', cases: [{ case_id: 'case_v1_a' }, { case_id: 'case_v1_b' }] },
    });
    expect(claim.data).not.toHaveProperty('updated');
    await expect(client.claims.create({ case_ids: ['case_v1_a'] })).rejects.toMatchObject({
      status: 409,
      serviceMessage: 'case case_v1_a already belongs to claim claim_from_v1',
    });
    expect((await client.v1.cases.list()).data.data[0]).toMatchObject({ claim_id: 'claim_from_v1' });
  });

  it('files on creation when asked, and refuses a transaction without arn or switch serial', async () => {
    const { client, request } = await startTestSandbox();
    const filed = await client.v1.cases.create(
      v1Case('case_v1_f', {
        reason: 'fraud',
        issuer_evidence: { card: { active: false }, fraud: { was_reported: true } },
        file: 'chargeback',
      }),
    );
    expect(filed.data).toMatchObject({ status: 'chargeback_filed' });
    const { switch_serial_number: _serial, ...noReference } = v1Case('x').transaction;
    const refused = await request('POST', '/v1/issuer/cases', { ...v1Case('case_v1_g'), transaction: noReference });
    expect(refused).toMatchObject({ status: 400, body: { errors: [{ details: { field: 'transaction.arn' } }] } });
  });
});
