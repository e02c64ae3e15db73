import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificates, type Certificates } from '../helpers/certificates.js';
import { startConnectProxy } from '../helpers/connect-proxy.js';
import { csvOf, fraudRow, genericMapping, makeWorkspace, readResults, runBin } from '../import/e2e-fixtures.js';
import { bankEnvironment, startTlsSandbox } from './bank-network.js';

/**
 * Through a proxy over TLS 1.3, a service refusing the client certificate hangs up after the
 * handshake, and each request in flight sees only a closed socket. One look at the
 * connection tells why (classify-failure.ts); every claim in flight now meets that verdict, where
 * those after the first were taken as sent, retried, and left `failed` with CLAIMS_NETWORK and
 * "run the same command again". Nothing reached the service: reported as the direct case is.
 */

let certificates: Certificates;
beforeAll(async () => {
  certificates = await makeCertificates();
}, 60_000);
afterAll(async () => certificates.remove());

describe('a client certificate refused through a proxy, several claims in flight', () => {
  it(
    'exit 5, the certificate advice, nothing marked sent, no CLAIMS_NETWORK, no retry',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const { sandbox, connections } = await startTlsSandbox(certificates);
      const proxy = await startConnectProxy({ credentials: 'nightly:proxy-password' });
      const refs = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX'];
      await workspace.write('night.csv', csvOf(refs.map((ref) => fraudRow(ref, 'T1'))));
      const env: Record<string, string> = {
        ...bankEnvironment(certificates, sandbox, { HTTPS_PROXY: proxy.url }),
        CLAIMS_CLIENT_CERT: certificates.strangerClientPem,
        CLAIMS_CLIENT_KEY: certificates.strangerClientKey,
      };
      delete env.CLAIMS_CLIENT_KEY_PASSPHRASE;
      const run = await runBin(
        [
          'import',
          'night.csv',
          '--mapping',
          genericMapping,
          '--evidence-dir',
          'evidence',
          '--concurrency',
          '8',
          '--log-level',
          'debug',
        ],
        env,
        { cwd: workspace.dir },
      );

      expect(run.exitCode, run.stderr.slice(-2000)).toBe(5);
      expect(run.stderr).toContain('CLAIMS_TLS_CLIENT_CERT_REFUSED: POST /v2/issuer/new_claim: ');
      expect(run.stderr).toMatch(
        /refused the client certificate \(it hung up right after the TLS handshake, before any request\).*ask the service for the CA it accepts/,
      );
      expect(run.stderr).toContain('nothing was sent: once that is fixed, run the same command again');
      expect(run.stderr).not.toContain('run the same command again to continue');
      expect(run.stderr).not.toContain('CLAIMS_NETWORK');
      expect(run.stderr).not.toContain('claims request retried');
      // It went through the proxy; the service saw handshakes only.
      expect(proxy.tunnels.length).toBeGreaterThan(0);
      const tunnelled = new Set(proxy.tunnels.map((tunnel) => tunnel.upstreamPort));
      expect(connections.filter((port) => !tunnelled.has(port))).toEqual([]);
      await proxy.close();

      const { rows } = await readResults(join(workspace.dir, 'night.results.csv'));
      expect(rows.map((row) => [row.outcome, row.error_code])).toEqual(refs.map(() => ['failed', 'not_finished']));
      const journal = new Database(join(workspace.dir, 'night.journal.sqlite'), { readonly: true });
      try {
        expect(journal.prepare('SELECT DISTINCT step, sent FROM claims').all()).toEqual([{ step: 'staged', sent: 0 }]);
        expect(journal.prepare('SELECT count(*) AS sent FROM sent_claims').get()).toEqual({ sent: 0 });
      } finally {
        journal.close();
      }
    },
  );
});
