import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fraudClaim } from '../../helpers/sandbox.js';
import type { RecordedRequest, Step } from '../../helpers/scripted-server.js';
import { eventually, secret, startWebhookSandbox } from './fixture.js';

/**
 * The receiver snippet of docs/sandbox.md ("Webhooks"), kept here so it runs
 * against real deliveries: it uses node:crypto only, not our module, as a receiver would.
 */
function verifyWebhook(secret: string, header: string | undefined, rawBody: Buffer, toleranceSeconds = 300): boolean {
  const fields = (header ?? '').split(',').map((part) => part.split('='));
  const t = Number(fields.find(([key]) => key === 't')?.[1]);
  if (!(Math.abs(Date.now() / 1000 - t) <= toleranceSeconds)) return false; // too old: a replay
  const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  return fields.some(
    ([key, value = '']) =>
      key === 'v1' && /^[0-9a-f]{64}$/.test(value) && timingSafeEqual(Buffer.from(value, 'hex'), expected),
  );
}

describe('the docs/sandbox.md receiver snippet', () => {
  it('verifies what the sandbox sends, and answers 400 to what it cannot verify', async () => {
    const seen: { type: string; verified: boolean }[] = [];
    const receiver: Step = (request: RecordedRequest, response) => {
      const header = request.headers['bulk-disputes-signature'];
      const verified = verifyWebhook(secret, typeof header === 'string' ? header : undefined, request.body);
      seen.push({ type: (JSON.parse(request.body.toString('utf8')) as { type: string }).type, verified });
      response.writeHead(verified ? 200 : 400).end();
    };
    const { client } = await startWebhookSandbox(() => receiver);
    await client.claims.createWithCases(fraudClaim('claim_sample'));
    await client.claims.file('claim_sample', { file_mode: 'chargeback' });
    await eventually(() => {
      expect(seen).toHaveLength(2);
    });
    expect(seen).toEqual([
      { type: 'case.created', verified: true },
      { type: 'case.chargeback_filed', verified: true },
    ]);

    const body = Buffer.from('{"event_id":"event_x"}');
    const stale = Math.floor(Date.now() / 1000) - 301;
    const staleHeader = `t=${stale},v1=${createHmac('sha256', secret).update(`${stale}.`).update(body).digest('hex')}`;
    expect(verifyWebhook(secret, staleHeader, body)).toBe(false);
    expect(verifyWebhook(secret, undefined, body)).toBe(false);
    expect(verifyWebhook(secret, 't=1,v1=zz', body)).toBe(false);
  });
});
