import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { listDeliveries } from '../../../src/sandbox/webhooks/deliveries.js';
import { startWebhooks } from '../../../src/sandbox/webhooks/dispatcher.js';
import { WebhookConfigError } from '../../../src/sandbox/webhooks/schedule.js';
import { fraudClaim, startTestSandbox } from '../../helpers/sandbox.js';
import { delayed, json, startScriptedServer } from '../../helpers/scripted-server.js';
import { eventually, startWebhookSandbox } from './fixture.js';

const ok = json(200, { received: true });

describe('webhooks: start, stop, restart', () => {
  it('closes promptly with an attempt in flight, records it as interrupted, and sends nothing after', async () => {
    const { client, receiver, sandbox, webhooks } = await startWebhookSandbox(() => delayed(10_000, ok));
    await client.claims.createWithCases(fraudClaim('claim_slow'));
    await eventually(() => {
      expect(receiver.requests).toHaveLength(1);
    });

    const started = Date.now();
    await webhooks.close();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(listDeliveries(sandbox.core.database)).toMatchObject([
      { attempt: 1, status: null, error: 'abandoned: webhooks closed during the attempt', outcome: 'retrying' },
    ]);

    await client.claims.createWithCases(fraudClaim('claim_after'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.requests).toHaveLength(1);
    await webhooks.close();
  });

  it('resumes a retry that a restart interrupted, on the same database file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'bulk-disputes-webhooks-'));
    onTestFinished(async () => rm(folder, { recursive: true, force: true }));
    const db = join(folder, 'sandbox.db');
    const receiver = await startScriptedServer([json(500, {}), ok]);

    const first = await startTestSandbox({ db });
    const before = startWebhooks(first.sandbox.core, { urls: [receiver.url], retryScheduleMs: [1000] });
    await first.client.claims.createWithCases(fraudClaim('claim_restart'));
    await eventually(() => {
      expect(listDeliveries(first.sandbox.core.database)).toHaveLength(1);
    });
    await before.close();
    await first.sandbox.close();

    const second = await startTestSandbox({ db });
    const after = startWebhooks(second.sandbox.core, {
      urls: [receiver.url],
      secret: before.secret,
      retryScheduleMs: [1000],
    });
    onTestFinished(async () => after.close());
    await eventually(() => {
      expect(listDeliveries(second.sandbox.core.database).at(-1)?.outcome).toBe('delivered');
    });
    expect(listDeliveries(second.sandbox.core.database)).toMatchObject([
      { attempt: 1, status: 500, outcome: 'retrying' },
      { attempt: 2, status: 200, outcome: 'delivered' },
    ]);
    expect(receiver.requests[1]?.body.equals(receiver.requests[0]?.body ?? Buffer.alloc(0))).toBe(true);
  });

  it('generates a secret when none is given', async () => {
    const { sandbox } = await startTestSandbox();
    const webhooks = startWebhooks(sandbox.core, { urls: ['http://127.0.0.1:9/hooks'] });
    onTestFinished(async () => webhooks.close());
    expect(webhooks.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
  });

  it('reports a delivery it could not record, and keeps going', async () => {
    const receiver = await startScriptedServer(() => ok);
    const { sandbox, client } = await startTestSandbox();
    const errors: unknown[] = [];
    const webhooks = startWebhooks(sandbox.core, { urls: [receiver.url], onError: (error) => errors.push(error) });
    onTestFinished(async () => webhooks.close());
    sandbox.core.database.exec('DROP TABLE webhook_deliveries');
    await client.claims.createWithCases(fraudClaim('claim_unrecorded'));
    await eventually(() => {
      expect(errors).toHaveLength(1);
    });
    expect(String(errors[0])).toMatch(/no such table: webhook_deliveries/);
    expect(receiver.requests).toHaveLength(1);
  });

  it.each([
    [{ urls: [] }, 'webhook urls: expected at least one URL, got none'],
    [{ urls: ['localhost:3000/hooks'] }, "webhook url: expected an http or https URL, got 'localhost:3000/hooks'"],
    [{ urls: ['not a url'] }, "webhook url: expected an absolute http(s) URL, got 'not a url'"],
    [{ urls: ['http://127.0.0.1:9'], secret: '' }, "webhook secret: expected a non-empty string, got ''"],
    [
      { urls: ['http://127.0.0.1:9'], timeoutMs: 0 },
      'webhook timeout: expected a whole number of milliseconds from 1 to 600000, got 0',
    ],
    [
      { urls: ['http://127.0.0.1:9'], retryScheduleMs: [-5] },
      'retry schedule entry 1: expected a whole number of milliseconds from 0 to 86400000, got -5',
    ],
  ])('refuses unusable options: %j', async (options, message) => {
    const { sandbox } = await startTestSandbox();
    expect(() => startWebhooks(sandbox.core, options)).toThrow(new WebhookConfigError(message));
  });
});
