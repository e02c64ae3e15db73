import { ClaimsClient } from '../../src/api/client/index.js';
import { onTestFinished } from 'vitest';
import { startCountingProxy, type CountingProxy } from './counting-proxy.js';
import { startSandboxProcess } from './sandbox-process.js';

/**
 * A sandbox process behind a counting proxy: what reached a service is counted at its
 * door, not taken from the CLI's word. `url` is the door; `client(key)` reads what the service holds.
 */
export interface ServiceBehindDoor {
  url: string;
  door: CountingProxy;
  client: (apiKey: string) => ClaimsClient;
}

export async function startServiceBehindDoor(
  apiKeys: readonly string[],
  extraFlags: readonly string[] = [],
): Promise<ServiceBehindDoor> {
  const sandbox = await startSandboxProcess([
    '--db',
    ':memory:',
    '--workflow-delay-ms',
    '20',
    ...apiKeys.flatMap((key) => ['--api-key', key]),
    ...extraFlags,
  ]);
  const door = await startCountingProxy(sandbox.url);
  const clients: ClaimsClient[] = [];
  onTestFinished(async () => {
    await Promise.all(clients.map(async (client) => client.close()));
  });
  return {
    url: door.url,
    door,
    // Straight to the sandbox: the test's own reads are not counted at the door.
    client: (apiKey) => {
      const client = new ClaimsClient({ baseUrl: sandbox.url, apiKey, retry: { maxAttempts: 1 } });
      clients.push(client);
      return client;
    },
  };
}

/** Every claim id the client's environment holds. */
export async function claimIds(client: ClaimsClient): Promise<string[]> {
  const ids: string[] = [];
  for await (const claim of client.claims.listAll({ limit: 100 })) ids.push(claim.claim_id);
  return ids.sort();
}
