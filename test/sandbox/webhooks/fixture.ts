import { onTestFinished, vi } from 'vitest';
import { startWebhooks, type WebhookOptions, type Webhooks } from '../../../src/sandbox/webhooks/dispatcher.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { startScriptedServer, type ScriptedServer, type Step } from '../../helpers/scripted-server.js';

export const secret = 'whsec_webhook_tests';

export interface WebhookSandbox extends TestSandbox {
  receiver: ScriptedServer;
  webhooks: Webhooks;
}

/**
 * A receiver (a real server scripted by request count) and a sandbox whose events are delivered
 * to it, with waits short enough for a test. The webhooks close before the sandbox does:
 * onTestFinished runs in reverse order of registration.
 */
export async function startWebhookSandbox(
  script: Step[] | ((index: number) => Step),
  options: Partial<WebhookOptions> = {},
): Promise<WebhookSandbox> {
  const receiver = await startScriptedServer(script);
  const sandbox = await startTestSandbox();
  const webhooks = startWebhooks(sandbox.sandbox.core, {
    urls: [receiver.url],
    secret,
    retryScheduleMs: [10, 10, 10],
    ...options,
  });
  onTestFinished(async () => webhooks.close());
  return { ...sandbox, receiver, webhooks };
}

/** vi.waitFor with room for a loaded machine: its default gives up after one second. */
export async function eventually(check: () => void, timeoutMs = 10_000): Promise<void> {
  await vi.waitFor(check, { timeout: timeoutMs, interval: 10 });
}
