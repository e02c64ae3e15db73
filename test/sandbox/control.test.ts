import { describe, expect, it } from 'vitest';
import { fraudClaim, liveKey, recentDate, startTestSandbox } from '../helpers/sandbox.js';

describe('control prefix: network outcomes, clock, reset', () => {
  it('a case advanced to won shows in the case, in the events and in the claim', async () => {
    const { client, request } = await startTestSandbox({ control: true });
    await client.claims.createWithCases(fraudClaim('adv'));
    await client.claims.file('adv', { file_mode: 'chargeback' });
    for (const status of ['chargeback_represented', 'prearb_filed', 'won']) {
      expect(await request('POST', '/_sandbox/cases/adv-case-1/advance', { status })).toMatchObject({
        status: 200,
        body: { status },
      });
    }
    expect((await client.cases.retrieve('adv-case-1')).data.status).toBe('won');
    expect((await client.claims.retrieve('adv')).data.cases?.[0]).toMatchObject({
      case_id: 'adv-case-1',
      status: 'won',
    });
    const types = (await client.events.list({ limit: 100 })).data.data.map((event) => event.type);
    expect(types.slice(0, 3)).toEqual(['case.won', 'case.prearb_filed', 'case.chargeback_represented']);
  });

  it('moves only along the allowed ones', async () => {
    const { client, request } = await startTestSandbox({ control: true });
    await client.claims.createWithCases(fraudClaim('adv'));
    expect(await request('POST', '/_sandbox/cases/adv-case-1/advance', { status: 'won' })).toEqual({
      status: 400,
      body: {
        message:
          'cannot advance a case from created to won: allowed next statuses are none (not filed, or already decided)',
      },
      headers: expect.anything() as unknown,
    });
    await client.claims.file('adv', { file_mode: 'chargeback' });
    await request('POST', '/_sandbox/cases/adv-case-1/advance', { status: 'lost' });
    expect((await request('POST', '/_sandbox/cases/adv-case-1/advance', { status: 'won' })).status).toBe(400);
    expect((await request('POST', '/_sandbox/cases/adv-case-1/advance', { status: 'closed' })).status).toBe(400);
  });

  it('moving the clock closes a filing window', async () => {
    const { client, request } = await startTestSandbox({ control: true });
    await client.claims.createWithCases(fraudClaim('late'));
    const before = (await request('GET', '/_sandbox/clock')).body as { now: string };
    const moved = await request('POST', '/_sandbox/clock', { advance_days: 200 });
    expect(Date.parse((moved.body as { now: string }).now) - Date.parse(before.now)).toBeGreaterThanOrEqual(
      200 * 24 * 60 * 60 * 1000,
    );
    expect((await client.cases.review('late-case-1')).data.filing_errors).toEqual([
      {
        code: 'filing_window_expired',
        message: 'fraud: the 120-day filing window from the transaction date has passed',
        details: { field: 'transaction.date' },
      },
    ]);
  });

  it('reset forgets the caller environment only', async () => {
    const { client, live, request } = await startTestSandbox({ control: true });
    await client.claims.createWithCases(fraudClaim('gone'));
    await live.claims.createWithCases(fraudClaim('kept'));
    expect(await request('POST', '/_sandbox/reset')).toMatchObject({ status: 200, body: { success: true } });
    expect((await client.claims.list()).data.data).toEqual([]);
    expect((await live.claims.list()).data.data.map((claim) => claim.claim_id)).toEqual(['kept']);
    expect((await request('POST', '/_sandbox/reset', undefined, liveKey)).status).toBe(200);
  });

  it('is not served without --control', async () => {
    const { request } = await startTestSandbox();
    expect((await request('POST', '/_sandbox/reset')).status).toBe(404);
  });
});

describe('second review: clock bounds, v1 auto, delivery dates, flags cleared', () => {
  it('refuses a clock move past 100 years, and keeps working', async () => {
    const { request } = await startTestSandbox({ control: true });
    expect(await request('POST', '/_sandbox/clock', { advance_ms: 9_000_000_000_000_000 })).toMatchObject({
      status: 400,
      body: { errors: [{ details: { field: 'advance_ms' } }] },
    });
    expect((await request('GET', '/_sandbox/clock')).status).toBe(200);
    expect((await request('POST', '/v2/issuer/new_claim', fraudClaim('after'))).status).toBe(201);
  });

  it('a v1 case created with file: auto follows the workflow rules', async () => {
    const { request } = await startTestSandbox({ rules: { rules: [], default: 'flag_for_review' } });
    const created = await request('POST', '/v1/issuer/cases', {
      cardholder: { name: 'Ada' },
      dispute: { amount: 100, currency: 'USD', date: recentDate },
      merchant: { name: 'Shop' },
      reason: 'fraud',
      transaction: {
        amount: 100,
        currency: 'USD',
        date: recentDate,
        arn: '1',
        card_last4: '4242',
        card_expiry_month: 1,
        card_expiry_year: 2030,
        card_network: 'visa',
        card_type: 'credit',
        system: 'dual_message',
      },
      issuer_evidence: { card: { active: false }, fraud: { was_reported: true } },
      file: 'auto',
    });
    expect(created).toMatchObject({
      status: 201,
      body: { status: 'created', review_status: 'chargeback_needs_review' },
    });
  });

  it('product_not_received cannot be filed before the expected delivery date; once filed, a flag is cleared', async () => {
    const { client, request } = await startTestSandbox({
      control: true,
      rules: { rules: [], default: 'flag_for_review' },
    });
    const future = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000).toISOString();
    const base = fraudClaim('pnr');
    await client.claims.createWithCases({
      ...base,
      dispute: { ...base.dispute, reason: 'product_not_received' },
      issuer_evidence: { delivery: { expected_date: future } },
    });
    expect((await client.cases.review('pnr-case-1')).data.filing_errors).toEqual([
      {
        code: 'filing_window_not_open',
        message: 'product_not_received: cannot be filed before issuer_evidence.delivery.expected_date',
        details: { field: 'issuer_evidence.delivery.expected_date' },
      },
    ]);
    await request('POST', '/_sandbox/clock', { advance_days: 31 });
    expect((await client.cases.file('pnr-case-1', { file_mode: 'auto' })).data).toEqual({ success: false });
    expect((await client.cases.retrieve('pnr-case-1')).data.review_status).toBe('chargeback_needs_review');
    expect((await client.cases.file('pnr-case-1', { file_mode: 'chargeback' })).data).toEqual({ success: true });
    expect((await client.cases.retrieve('pnr-case-1')).data).toMatchObject({
      status: 'chargeback_filed',
      review_status: null,
    });
  });
});
