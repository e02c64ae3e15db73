import { describe, expect, it } from 'vitest';
import { listDeliveries } from '../../../src/sandbox/webhooks/deliveries.js';
import { signatureHeader, verifySignature } from '../../../src/sandbox/webhooks/signature.js';
import { fraudClaim } from '../../helpers/sandbox.js';
import { bodyOf, delayed, json, resetAfterReceiving, type RecordedRequest } from '../../helpers/scripted-server.js';
import { eventually, secret, startWebhookSandbox } from './fixture.js';

const ok = json(200, { received: true });
const nowSeconds = () => Math.floor(Date.now() / 1000);
const signatureOf = (request: RecordedRequest | undefined) => String(request?.headers[signatureHeader]);

describe('webhook delivery', () => {
  it('delivers case.created then case.chargeback_filed, signed so the receiver can verify them', async () => {
    const { client, receiver, sandbox } = await startWebhookSandbox(() => ok);
    await client.claims.createWithCases(fraudClaim('claim_hook'));
    await client.claims.file('claim_hook', { file_mode: 'chargeback' });

    await eventually(() => {
      expect(receiver.requests).toHaveLength(2);
    });
    const events = (await client.events.list({ limit: 10 })).data.data.reverse();
    expect(receiver.requests.map(bodyOf)).toEqual(
      events.map((event) => ({
        event_id: event.event_id,
        created: event.created,
        type: event.type,
        data: { case_id: 'claim_hook-case-1' },
      })),
    );
    expect(receiver.requests.map((request) => (bodyOf(request) as { type: string }).type)).toEqual([
      'case.created',
      'case.chargeback_filed',
    ]);

    const filed = receiver.requests[1];
    expect(filed?.method).toBe('POST');
    expect(filed?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': expect.stringMatching(/^bulk-disputes-sandbox-webhooks\//) as unknown,
      'bulk-disputes-environment': 'sandbox',
      'bulk-disputes-delivery-attempt': '1',
    });
    const body = filed?.body ?? Buffer.alloc(0);
    const header = signatureOf(filed);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(secret, header, body, nowSeconds())).toBe(true);
    expect(verifySignature('whsec_someone_else', header, body, nowSeconds())).toBe(false);
    expect(
      verifySignature(secret, header, body.toString('utf8').replace('chargeback_filed', 'won'), nowSeconds()),
    ).toBe(false);
    expect(verifySignature(secret, header, body, nowSeconds() + 600)).toBe(false);

    const delivered = listDeliveries(sandbox.core.database);
    expect(delivered).toMatchObject(
      events.map((event) => ({
        environment: 'sandbox',
        event_id: event.event_id,
        url: receiver.url,
        attempt: 1,
        status: 200,
        error: null,
        outcome: 'delivered',
      })),
    );
  });

  it('retries a receiver that fails twice, and delivers on the third attempt', async () => {
    const { client, receiver, sandbox } = await startWebhookSandbox([json(500, {}), json(500, {}), ok]);
    await client.claims.createWithCases(fraudClaim('claim_retry'));

    await eventually(() => {
      expect(listDeliveries(sandbox.core.database).at(-1)?.outcome).toBe('delivered');
    });
    const [first, , third] = receiver.requests;
    expect(receiver.requests).toHaveLength(3);
    expect(third?.body.equals(first?.body ?? Buffer.alloc(0))).toBe(true);
    expect(receiver.requests.map((request) => request.headers['bulk-disputes-delivery-attempt'])).toEqual([
      '1',
      '2',
      '3',
    ]);
    // Each attempt is signed afresh, and each signature holds.
    for (const request of receiver.requests)
      expect(verifySignature(secret, signatureOf(request), request.body, nowSeconds())).toBe(true);

    const eventId = (bodyOf(first) as { event_id: string }).event_id;
    expect(listDeliveries(sandbox.core.database, eventId)).toMatchObject([
      { attempt: 1, status: 500, error: 'receiver answered 500', outcome: 'retrying' },
      { attempt: 2, status: 500, outcome: 'retrying' },
      { attempt: 3, status: 200, error: null, outcome: 'delivered' },
    ]);
  });

  it('gives up after the schedule when the receiver never answers 2xx: a status, a reset, a timeout', async () => {
    const script = [json(503, {}), resetAfterReceiving, delayed(30_000, ok), json(404, {})];
    const { client, receiver, sandbox } = await startWebhookSandbox(script, { timeoutMs: 2000 });
    await client.claims.createWithCases(fraudClaim('claim_down'));

    await eventually(() => {
      expect(listDeliveries(sandbox.core.database).at(-1)?.outcome).toBe('failed');
    });
    expect(listDeliveries(sandbox.core.database)).toMatchObject([
      { attempt: 1, status: 503, outcome: 'retrying' },
      {
        attempt: 2,
        status: null,
        error: expect.stringMatching(/ECONNRESET|socket|closed/i) as unknown,
        outcome: 'retrying',
      },
      { attempt: 3, status: null, error: 'no answer within 2000 ms', outcome: 'retrying' },
      { attempt: 4, status: 404, error: 'receiver answered 404', outcome: 'failed' },
    ]);
    // Nothing after the last: the schedule is spent.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.requests).toHaveLength(4);
  });

  it('sends first attempts in commit order, and lets a later event pass an earlier one being retried', async () => {
    const { client, receiver } = await startWebhookSandbox((index) => (index === 0 ? json(500, {}) : ok), {
      retryScheduleMs: [50],
    });
    await client.claims.createWithCases(fraudClaim('claim_order', 3));

    await eventually(() => {
      expect(receiver.requests).toHaveLength(4);
    });
    const caseIds = receiver.requests.map((request) => (bodyOf(request) as { data: { case_id: string } }).data.case_id);
    expect(caseIds).toEqual(['claim_order-case-1', 'claim_order-case-2', 'claim_order-case-3', 'claim_order-case-1']);
  });

  it('marks production events in a header, and sends only the environments asked for', async () => {
    const both = await startWebhookSandbox(() => ok);
    await both.live.claims.createWithCases(fraudClaim('claim_live'));
    await eventually(() => {
      expect(both.receiver.requests).toHaveLength(1);
    });
    expect(both.receiver.requests[0]?.headers['bulk-disputes-environment']).toBe('production');
    expect(Object.keys(bodyOf(both.receiver.requests[0]) as object)).toEqual(['event_id', 'created', 'type', 'data']);

    const sandboxOnly = await startWebhookSandbox(() => ok, { environments: ['sandbox'] });
    await sandboxOnly.live.claims.createWithCases(fraudClaim('claim_live'));
    await sandboxOnly.client.claims.createWithCases(fraudClaim('claim_test'));
    await eventually(() => {
      expect(sandboxOnly.receiver.requests).toHaveLength(1);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sandboxOnly.receiver.requests.map((request) => request.headers['bulk-disputes-environment'])).toEqual([
      'sandbox',
    ]);
  });
});
