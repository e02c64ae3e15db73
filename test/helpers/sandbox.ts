import { onTestFinished } from 'vitest';
import { ClaimsClient } from '../../src/api/client/index.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';

export const sandboxKey = 'test_sandbox_key_0001';
export const liveKey = 'live_production_key_0001';

export interface TestSandbox {
  sandbox: Sandbox;
  /** A client with the test key (sandbox environment), no retries. */
  client: ClaimsClient;
  /** A client with the live key (production environment). */
  live: ClaimsClient;
  /** Raw request with the test key, for answers the client would refuse to send. */
  request: (
    method: string,
    path: string,
    body?: unknown,
    key?: string,
  ) => Promise<{ status: number; body: unknown; headers: Headers }>;
}

/** A sandbox on a loopback port 0, closed when the test finishes. */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await createSandbox({ apiKeys: [sandboxKey, liveKey], workflowDelayMs: 50, ...options });
  const clientWith = (apiKey: string) => new ClaimsClient({ baseUrl: sandbox.url, apiKey, retry: { maxAttempts: 1 } });
  const client = clientWith(sandboxKey);
  const live = clientWith(liveKey);
  onTestFinished(async () => {
    await Promise.all([client.close(), live.close()]);
    await sandbox.close();
  });
  return {
    sandbox,
    client,
    live,
    request: async (method, path, body, key = sandboxKey) => {
      const response = await fetch(`${sandbox.url}${path}`, {
        method,
        headers: {
          authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text ? (JSON.parse(text) as unknown) : undefined,
        headers: response.headers,
      };
    },
  };
}

const today = new Date();
/** A transaction date inside every filing window. */
export const recentDate = new Date(today.getTime() - 10 * 24 * 60 * 60 * 1000).toISOString();

/** A fraud new_claim that passes filing validation, with `caseCount` cases. */
export function fraudClaim(claimId: string, caseCount = 1) {
  return {
    claim_id: claimId,
    card: { last4: '4242', network: 'visa' as const, type: 'credit' as const, expiry_month: 12, expiry_year: 2029 },
    cardholder: { name: 'Ada Lovelace', type: 'individual' as const },
    dispute: { reason: 'fraud' as const, raised_by: 'cardholder' as const, date: recentDate },
    issuer_evidence: { card: { is_active: false }, fraud: { was_reported: true } },
    cases: Array.from({ length: caseCount }, (_, index) => ({
      case_id: `${claimId}-case-${index + 1}`,
      dispute: { amount: 1000 * (index + 1), currency: 'USD' },
      merchant: { name: 'Voltmart', category_code: '5732' },
      transaction: { amount: 1000 * (index + 1), currency: 'USD', date: recentDate, arn: `7453760422143100${index}` },
    })),
  };
}
