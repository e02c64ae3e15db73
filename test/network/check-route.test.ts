import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeCertificates, type Certificates } from '../helpers/certificates.js';
import { startConnectProxy } from '../helpers/connect-proxy.js';
import { bankEnvironment, startTlsSandbox } from './bank-network.js';

/** `check` shows the way to the service, as a platform team checks a bank network's setup. */

let certificates: Certificates;
beforeAll(async () => {
  certificates = await makeCertificates();
}, 60_000);
afterAll(async () => certificates.remove());

describe('check inside a bank network', () => {
  it(
    'prints the route and why, TLS, the server certificate with an expiry warning, the client certificate accepted; never the proxy password',
    { timeout: 60_000 },
    async () => {
      const { sandbox } = await startTlsSandbox(certificates);
      const proxy = await startConnectProxy({ credentials: 'nightly:proxy-pw-77' });
      const env = bankEnvironment(certificates, sandbox, { HTTPS_PROXY: proxy.url });
      const checked = await runCli(['check'], env);
      expect(checked.exitCode, checked.stderr).toBe(0);
      const port = new URL(proxy.address).port;
      expect(checked.stdout).toContain(`route: through proxy http://[REDACTED]@127.0.0.1:${port} (HTTPS_PROXY)\n`);
      expect(checked.stdout).toContain('tls: TLSv1.3\n');
      expect(checked.stdout).toMatch(
        /server certificate: O=Claims Service, CN=claims\.test, issued by O=Test Bank, CN=Test Bank Root CA, expires \d{4}-\d{2}-\d{2} \(29 days\)\n/,
      );
      // The tests' certificates are made for 30 days: under the warning's threshold.
      expect(checked.stdout).toContain('warning: the server certificate expires in 29 days\n');
      expect(checked.stdout).toContain('client certificate: sent and accepted\n');
      expect(`${checked.stdout}${checked.stderr}`).not.toContain('proxy-pw-77');
      expect(proxy.tunnels.length).toBeGreaterThan(0);

      const direct = await runCli(['check'], { ...env, NO_PROXY: '127.0.0.1' });
      expect(direct.exitCode, direct.stderr).toBe(0);
      expect(direct.stdout).toContain('route: direct (NO_PROXY matches 127.0.0.1)\n');
      await proxy.close();
    },
  );

  it('shows an untrusted certificate for what it is, and exits 4', { timeout: 60_000 }, async () => {
    const { sandbox } = await startTlsSandbox(certificates);
    const checked = await runCli(['check'], { ...bankEnvironment(certificates, sandbox), CLAIMS_CA_FILE: '' });
    expect(checked.exitCode).toBe(4);
    expect(checked.stdout).toContain('; NOT TRUSTED (SELF_SIGNED_CERT_IN_CHAIN)');
    expect(checked.stderr).toContain('CLAIMS_TLS_UNTRUSTED');
  });
});

describe('export and migrate-v1 inside a bank network', () => {
  it(
    'both reach the service through the proxy over mTLS, with the flags instead of the environment',
    { timeout: 60_000 },
    async () => {
      const { sandbox, connections } = await startTlsSandbox(certificates);
      const proxy = await startConnectProxy();
      const flags = [
        '--proxy',
        proxy.address,
        '--ca-file',
        certificates.caPem,
        '--client-cert',
        certificates.clientPem,
        '--client-key',
        certificates.clientKey,
      ];
      const env = { CLAIMS_BASE_URL: sandbox.url, CLAIMS_API_KEY: 'live_bank_network_key_0001' };
      const folder = certificates.dir;
      const exported = await runCli(['export', 'claims', '--out', `${folder}/claims.csv`, ...flags], env);
      expect(exported.exitCode, exported.stderr).toBe(0);
      const migrated = await runCli(
        [
          'migrate-v1',
          '--journal',
          `${folder}/migrate.journal.sqlite`,
          '--results',
          `${folder}/migrate.results.csv`,
          ...flags,
        ],
        env,
      );
      expect(migrated.exitCode, migrated.stderr).toBe(0);
      const tunnelled = new Set(proxy.tunnels.map((tunnel) => tunnel.upstreamPort));
      expect(connections.length).toBeGreaterThanOrEqual(2);
      expect(connections.filter((port) => !tunnelled.has(port))).toEqual([]);
      await proxy.close();
    },
  );
});
