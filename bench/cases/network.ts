import { join } from 'node:path';
import { makeCertificates } from '../../test/helpers/certificates.js';
import { startConnectProxy } from '../../test/helpers/connect-proxy.js';
import { plannedRows, writeDisputesCsv } from '../../test/import/generate.js';
import { importIntoSandbox, type ImportRun } from '../support/import-run.js';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';

/**
 * From inside a bank: the submit case (concurrency 32, the sandbox answering after
 * 50 ms, one request per claim) with the service over HTTPS requiring a client certificate and
 * the job going through a real CONNECT proxy with Basic credentials, against the same import
 * straight to the sandbox over plain HTTP, in the same run. Certificates made with openssl (EC
 * P-256, as test/helpers/certificates.ts makes them); the proxy runs in this process.
 */

const latencyMs = 50;
const concurrency = 32;
const claims = { full: 3_200, quick: 160 };

async function importOnce(
  context: BenchContext,
  name: string,
  count: number,
  sandboxFlags: string[],
  importEnv?: NodeJS.ProcessEnv,
): Promise<ImportRun> {
  const input = join(context.workDir, `${name}.csv`);
  await writeDisputesCsv(input, plannedRows({ claims: count, sizeOf: () => 1, block: 1 }));
  const run = await importIntoSandbox(context, {
    name,
    input,
    sandboxFlags: ['--latency-ms', String(latencyMs), ...sandboxFlags],
    concurrency,
    importEnv,
  });
  if (run.outcomes.created !== count)
    throw new Error(`network bench: expected ${count} claims created, got ${JSON.stringify(run.outcomes)}`);
  return run;
}

export const benchCase: BenchCase = {
  name: 'network',
  async run(context): Promise<BenchRow[]> {
    const count = context.quick ? claims.quick : claims.full;
    const certificates = await makeCertificates();
    const proxy = await startConnectProxy({ credentials: 'bench:proxy-password' });
    try {
      const direct = await importOnce(context, 'network-direct', count, []);
      const tls = [
        '--tls-cert',
        certificates.serverPem,
        '--tls-key',
        certificates.serverKey,
        '--client-ca',
        certificates.caPem,
      ];
      const env = {
        HTTPS_PROXY: proxy.url,
        CLAIMS_CA_FILE: certificates.caPem,
        CLAIMS_CLIENT_CERT: certificates.clientPem,
        CLAIMS_CLIENT_KEY: certificates.clientKey,
      };
      const bank = await importOnce(context, 'network-bank', count, tls, env);
      if (proxy.tunnels.length === 0)
        throw new Error('network bench: expected the import to go through the proxy, got no tunnel');
      const perSecond = (run: ImportRun) => count / run.sendingSeconds;
      return [
        {
          benchmark: `Submit through a proxy over mTLS, concurrency ${concurrency} (${count.toLocaleString('en-US')} claims)`,
          figure: `${perSecond(bank).toFixed(1)} claims/s (${proxy.tunnels.length} tunnels)`,
          baseline: `direct HTTP: ${perSecond(direct).toFixed(1)} claims/s`,
          ratio: perSecond(bank) / perSecond(direct),
          note: `sandbox answering after ${latencyMs} ms; HTTPS with a client certificate required, through an in-process CONNECT proxy with Basic credentials; sending phase only`,
        },
      ];
    } finally {
      await proxy.close();
      await certificates.remove();
    }
  },
};
