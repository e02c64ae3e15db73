import { onTestFinished } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/server.js';
import type { Certificates } from '../helpers/certificates.js';

/** A live key: the claims go to the production side of the sandbox, as a nightly job's would. */
export const bankKey = 'live_bank_network_key_0001';

export interface TlsSandbox {
  sandbox: Sandbox;
  /** The client port of every connection the sandbox accepted. */
  connections: number[];
}

/** The service over HTTPS with the given certificate, requiring client certificates from the bank's CA unless `mutual` is false. */
export async function startTlsSandbox(
  certificates: Certificates,
  options: { certificate?: string; key?: string; mutual?: boolean } = {},
): Promise<TlsSandbox> {
  const connections: number[] = [];
  const sandbox = await createSandbox({
    apiKeys: [bankKey],
    workflowDelayMs: 20,
    tls: {
      cert: await certificates.read(options.certificate ?? certificates.serverPem),
      key: await certificates.read(options.key ?? certificates.serverKey),
      clientCa: options.mutual === false ? undefined : await certificates.read(certificates.caPem),
    },
    onConnection: (socket) => connections.push(socket.remotePort ?? 0),
  });
  onTestFinished(async () => sandbox.close());
  return { sandbox, connections };
}

/** The environment of a job that reaches the sandbox the bank's way: its CA, its client certificate (key encrypted). */
export function bankEnvironment(
  certificates: Certificates,
  sandbox: Sandbox,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    CLAIMS_BASE_URL: sandbox.url,
    CLAIMS_API_KEY: bankKey,
    CLAIMS_CA_FILE: certificates.caPem,
    CLAIMS_CLIENT_CERT: certificates.clientPem,
    CLAIMS_CLIENT_KEY: certificates.clientKeyEncrypted,
    CLAIMS_CLIENT_KEY_PASSPHRASE: certificates.clientPassphrase,
    ...extra,
  };
}
