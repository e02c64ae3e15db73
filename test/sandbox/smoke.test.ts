import { describe, expect, it } from 'vitest';
import { caseSchema, claimSchema } from '../../src/api/schemas/index.js';
import { fraudClaim, startTestSandbox } from '../helpers/sandbox.js';

describe('sandbox smoke', () => {
  it('creates, retrieves, files a claim and lists its events', async () => {
    const { client } = await startTestSandbox();
    const created = await client.claims.createWithCases(fraudClaim('claim_a', 2));
    expect(created.status).toBe(201);
    expect(claimSchema.safeParse(created.data).success).toBe(true);
    const first = created.data.cases?.[0];
    expect(first).toMatchObject({
      status: 'created',
      claim_id: 'claim_a',
      transaction: { card: { last4: '4242' } },
      dispute: { amount: 1000, reason: 'fraud' },
    });
    const strict = caseSchema.safeParse(first);
    expect(strict.error?.issues ?? []).toEqual([]);

    const filed = await client.claims.file('claim_a', { file_mode: 'chargeback' });
    expect(filed).toMatchObject({
      status: 202,
      data: {
        results: [
          { case_id: 'claim_a-case-1', success: true },
          { case_id: 'claim_a-case-2', success: true },
        ],
      },
    });
    const retrieved = await client.claims.retrieve('claim_a');
    expect(retrieved.data).toMatchObject({
      status: 'filed',
      cases: [{ status: 'chargeback_filed' }, { status: 'chargeback_filed' }],
    });
    const events = await client.events.list({ limit: 100 });
    expect(events.data.data.map((event) => event.type)).toEqual([
      'case.chargeback_filed',
      'case.chargeback_filed',
      'case.created',
      'case.created',
    ]);
  });
});
