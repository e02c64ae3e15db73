import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaimsClient } from '../../src/api/client/index.js';
import { makeCertificates, type Certificates } from '../helpers/certificates.js';
import { startConnectProxy } from '../helpers/connect-proxy.js';
import { csvOf, fraudRow, genericMapping, makeWorkspace, readResults, runBin } from '../import/e2e-fixtures.js';
import { bankEnvironment, bankKey, startTlsSandbox } from './bank-network.js';

/**
 * The proof: a 200-claim import from inside a bank's network. The service over HTTPS
 * with the bank's private CA, requiring a client certificate (mutual TLS); the job reaching it
 * through a real forwarding proxy with Basic credentials. Every claim created once, every
 * connection the service saw came through the proxy's tunnels; with NO_PROXY matching the host,
 * none did. The proxy's password and the key's passphrase appear in no log line or output.
 */

let certificates: Certificates;
beforeAll(async () => {
  certificates = await makeCertificates();
}, 60_000);
afterAll(async () => certificates.remove());

const proxyPassword = 's3cret-Proxy-Pw';

describe('an import through a proxy over mutual TLS', () => {
  it(
    '200 claims created once, all through the proxy; with NO_PROXY matching, none through it; no secret in any output',
    { timeout: 180_000 },
    async () => {
      const workspace = await makeWorkspace();
      const { sandbox, connections } = await startTlsSandbox(certificates);
      const proxy = await startConnectProxy({ credentials: `nightly:${proxyPassword}`, realm: 'bank-proxy' });
      const refs = Array.from({ length: 200 }, (_, index) => `NIGHT-${String(index).padStart(3, '0')}`);
      await workspace.write('night.csv', csvOf(refs.map((ref) => fraudRow(ref, 'T1'))));
      const env = bankEnvironment(certificates, sandbox, { HTTPS_PROXY: proxy.url });
      const run = await runBin(
        [
          'import',
          'night.csv',
          '--mapping',
          genericMapping,
          '--evidence-dir',
          'evidence',
          '--concurrency',
          '16',
          '--log-level',
          'debug',
        ],
        env,
        { cwd: workspace.dir },
      );
      expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
      const { rows } = await readResults(join(workspace.dir, 'night.results.csv'));
      expect(rows.filter((row) => row.outcome === 'filed')).toHaveLength(200);
      const jobConnections = [...connections];

      // Every claim once, read back over the same network path.
      const client = new ClaimsClient({
        baseUrl: sandbox.url,
        apiKey: bankKey,
        network: {
          ca: await certificates.read(certificates.caPem),
          cert: await certificates.read(certificates.clientPem),
          key: await certificates.read(certificates.clientKey),
        },
      });
      const ids: string[] = [];
      for await (const claim of client.claims.listAll({ limit: 100 })) ids.push(claim.claim_id);
      await client.close();
      expect(ids.filter((id) => id.startsWith('CLM-NIGHT-')).sort()).toEqual(refs.map((ref) => `CLM-${ref}`).sort());
      // Every connection of the job's came out of a proxy tunnel.
      const tunnelled = new Set(proxy.tunnels.map((tunnel) => tunnel.upstreamPort));
      expect(jobConnections.length).toBeGreaterThan(0);
      expect(jobConnections.filter((port) => !tunnelled.has(port))).toEqual([]);
      expect(proxy.tunnels.every((tunnel) => tunnel.authority === new URL(sandbox.url).host)).toBe(true);
      expect(proxy.refused).toEqual([]);

      // The same job again, new claims, NO_PROXY naming the service's host: the proxy sees nothing.
      const tunnelsBefore = proxy.tunnels.length;
      await workspace.write('direct.csv', csvOf(['DIRECT-1', 'DIRECT-2'].map((ref) => fraudRow(ref, 'T1'))));
      const direct = await runBin(
        ['import', 'direct.csv', '--mapping', genericMapping, '--evidence-dir', 'evidence', '--log-level', 'debug'],
        { ...env, NO_PROXY: 'localhost,127.0.0.1' },
        { cwd: workspace.dir },
      );
      expect(direct.exitCode, direct.stderr.slice(-2000)).toBe(0);
      expect(proxy.tunnels.length).toBe(tunnelsBefore);

      // The secrets: in no log line, no output, no results file, no journal.
      const journalText = new Database(join(workspace.dir, 'night.journal.sqlite'), { readonly: true })
        .prepare('SELECT group_concat(value) AS text FROM meta')
        .get() as { text: string };
      for (const text of [
        run.stdout,
        run.stderr,
        direct.stdout,
        direct.stderr,
        JSON.stringify(rows),
        journalText.text,
      ]) {
        expect(text).not.toContain(proxyPassword);
        expect(text).not.toContain(certificates.clientPassphrase);
        expect(text).not.toContain(Buffer.from(`nightly:${proxyPassword}`).toString('base64'));
      }
      await proxy.close();
    },
  );
});
