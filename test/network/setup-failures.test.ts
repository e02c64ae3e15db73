import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificates, type Certificates } from '../helpers/certificates.js';
import { startConnectProxy, type ConnectProxyOptions } from '../helpers/connect-proxy.js';
import { csvOf, fraudRow, genericMapping, makeWorkspace, runBin } from '../import/e2e-fixtures.js';
import { bankEnvironment, startTlsSandbox } from './bank-network.js';

/**
 * Each way a bank's network can be set up wrongly (docs/network.md, "When it is set up wrongly"),
 * through the real command against the service over HTTPS (mutual TLS unless said otherwise): its
 * exit code and message, no retry (no "retried" line in the debug log, and at most the attempt and
 * one look at the connection at the service's or the proxy's door), and a journal that marks
 * nothing sent.
 */

let certificates: Certificates;
beforeAll(async () => {
  certificates = await makeCertificates();
}, 60_000);
afterAll(async () => certificates.remove());

interface Case {
  name: string;
  exitCode: number;
  code: string;
  message: RegExp;
  sandbox?: (certificates: Certificates) => { certificate?: string; key?: string; mutual?: boolean };
  env?: (certificates: Certificates) => Record<string, string | undefined>;
  proxy?: ConnectProxyOptions & { withCredentials?: string; unreachable?: boolean };
  /** Connections the service may see: the attempt, and a look at its certificate. */
  atMostConnections: number;
}

const cases: Case[] = [
  {
    name: 'the bank CA not given: untrusted server certificate, with its subject',
    exitCode: 4,
    code: 'CLAIMS_TLS_UNTRUSTED',
    message:
      /expected one issued by a trusted CA.*subject O=Claims Service, CN=claims\.test; issuer O=Test Bank, CN=Test Bank Root CA.*--ca-file/,
    env: () => ({ CLAIMS_CA_FILE: undefined }),
    atMostConnections: 2,
  },
  {
    name: 'an expired server certificate, with its expiry',
    exitCode: 4,
    code: 'CLAIMS_TLS_EXPIRED',
    message: /got an expired one \(.*CN=claims\.test, expired 2021-01-01T00:00:00\.000Z\)/,
    sandbox: (c) => ({ certificate: c.expiredPem }),
    atMostConnections: 2,
  },
  {
    name: 'a certificate for another host',
    exitCode: 4,
    code: 'CLAIMS_TLS_HOSTNAME',
    message: /expected one issued for 127\.0\.0\.1, got another/,
    sandbox: (c) => ({ certificate: c.wrongHostPem, key: c.wrongHostKey }),
    atMostConnections: 2,
  },
  {
    name: 'no client certificate where the service asks for one',
    exitCode: 5,
    code: 'CLAIMS_TLS_CLIENT_CERT_REQUIRED',
    message: /asked for a client certificate and got none; give one with --client-cert/,
    env: () => ({ CLAIMS_CLIENT_CERT: undefined, CLAIMS_CLIENT_KEY: undefined }),
    atMostConnections: 2,
  },
  {
    name: 'a client certificate from a CA the service does not trust',
    exitCode: 5,
    code: 'CLAIMS_TLS_CLIENT_CERT_REFUSED',
    message: /refused the client certificate/,
    env: (c) => ({
      CLAIMS_CLIENT_CERT: c.strangerClientPem,
      CLAIMS_CLIENT_KEY: c.strangerClientKey,
      CLAIMS_CLIENT_KEY_PASSPHRASE: undefined,
    }),
    atMostConnections: 2,
  },
  {
    name: "a client key that is not the certificate's",
    exitCode: 5,
    code: 'CLAIMS_TLS_CLIENT_KEY_MISMATCH',
    message: /expected the private key of the client certificate, got another key/,
    env: (c) => ({ CLAIMS_CLIENT_KEY: c.otherKey, CLAIMS_CLIENT_KEY_PASSPHRASE: undefined }),
    atMostConnections: 0,
  },
  {
    name: 'a wrong passphrase',
    exitCode: 5,
    code: 'CLAIMS_TLS_CLIENT_KEY_PASSPHRASE',
    message: /expected the passphrase that decrypts it, got a wrong or missing one/,
    env: () => ({ CLAIMS_CLIENT_KEY_PASSPHRASE: 'not-the-passphrase' }),
    atMostConnections: 0,
  },
  {
    name: 'a proxy that wants credentials, given none: its realm named',
    exitCode: 6,
    code: 'CLAIMS_PROXY_AUTH_REQUIRED',
    message: /asked for authentication \(Basic realm="bank-proxy"\) and got none/,
    proxy: { credentials: 'nightly:right-password' },
    atMostConnections: 0,
  },
  {
    name: 'a proxy refusing the credentials given',
    exitCode: 6,
    code: 'CLAIMS_PROXY_AUTH_REQUIRED',
    message: /and got credentials it refused/,
    proxy: { credentials: 'nightly:right-password', withCredentials: 'nightly:wrong-password' },
    atMostConnections: 0,
  },
  {
    name: 'a proxy refusing the tunnel (403)',
    exitCode: 6,
    code: 'CLAIMS_PROXY_FORBIDDEN',
    message: /refused to open a tunnel to 127\.0\.0\.1:\d+ \(403\)/,
    proxy: { forbid: true },
    atMostConnections: 0,
  },
  {
    name: 'a proxy that is not there',
    exitCode: 6,
    code: 'CLAIMS_PROXY_UNREACHABLE',
    message: /expected to reach it, got ECONNREFUSED; check --proxy/,
    proxy: { unreachable: true },
    atMostConnections: 0,
  },
];

describe('a bank network set up wrongly: a clear failure, never retried, nothing marked sent', () => {
  it.each(cases)('$name: exit $exitCode, $code', { timeout: 60_000 }, async (setup) => {
    const workspace = await makeWorkspace();
    const { sandbox, connections } = await startTlsSandbox(certificates, setup.sandbox?.(certificates) ?? {});
    const proxy = setup.proxy === undefined ? undefined : await startConnectProxy(setup.proxy);
    let proxyUrl: string | undefined;
    if (proxy !== undefined) {
      const address = new URL(proxy.address);
      if (setup.proxy?.withCredentials !== undefined)
        address.username = setup.proxy.withCredentials.split(':')[0] ?? '';
      if (setup.proxy?.withCredentials !== undefined)
        address.password = setup.proxy.withCredentials.split(':')[1] ?? '';
      proxyUrl = address.href;
      if (setup.proxy?.unreachable === true) await proxy.close();
    }
    await workspace.write('one.csv', csvOf([fraudRow('ONE', 'T1')]));
    const merged: Record<string, string | undefined> = {
      ...bankEnvironment(certificates, sandbox),
      ...(proxyUrl === undefined ? {} : { HTTPS_PROXY: proxyUrl }),
      ...setup.env?.(certificates),
    };
    const env = Object.fromEntries(
      Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    // Pretty lines: the failure is the sentence a person reads (a pipe's default is one JSON record).
    const run = await runBin(
      [
        'import',
        'one.csv',
        '--mapping',
        genericMapping,
        '--evidence-dir',
        'evidence',
        '--log-level',
        'debug',
        '--log-format',
        'pretty',
      ],
      env,
      { cwd: workspace.dir },
    );
    expect(run.exitCode, run.stderr.slice(-1500)).toBe(setup.exitCode);
    expect(run.stderr).toContain(`bulk-disputes: ${setup.code}: `);
    expect(run.stderr).toMatch(setup.message);
    expect(run.stderr).not.toContain('claims request retried');
    expect(connections.length).toBeLessThanOrEqual(setup.atMostConnections);
    if (proxy !== undefined && setup.proxy?.unreachable !== true) {
      expect(proxy.tunnels).toEqual([]);
      expect(proxy.refused.length).toBeLessThanOrEqual(2);
      await proxy.close();
    }
    // The proxy's password never shows.
    if (setup.proxy?.withCredentials !== undefined) expect(run.stderr).not.toContain('wrong-password');
    // Nothing marked sent: the claim staged, no id recorded as sent (a journal exists once staging
    // ran). What the settings alone tell (a key that is not its certificate's, a wrong passphrase)
    // stops the job before the journal is made.
    const journalFile = join(workspace.dir, 'one.journal.sqlite');
    const toldBySettings = setup.code.startsWith('CLAIMS_TLS_CLIENT_KEY');
    expect(existsSync(journalFile)).toBe(!toldBySettings);
    if (toldBySettings) return;
    const journal = new Database(journalFile, { readonly: true, fileMustExist: true });
    try {
      const tables = (
        journal.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
      ).map((table) => table.name);
      if (tables.includes('claims')) {
        expect(journal.prepare('SELECT step, sent FROM claims').all()).toEqual([{ step: 'staged', sent: 0 }]);
        expect(journal.prepare('SELECT count(*) AS sent FROM sent_claims').get()).toEqual({ sent: 0 });
      }
    } finally {
      journal.close();
    }
  });

  it('a PKCS#12 bundle with its passphrase from a file works like the PEM pair', { timeout: 60_000 }, async () => {
    const workspace = await makeWorkspace();
    const { sandbox } = await startTlsSandbox(certificates);
    const passphraseFile = await workspace.write('pfx.pass', `${certificates.pfxPassphrase}\n`);
    await workspace.write('one.csv', csvOf([fraudRow('PFX', 'T1')]));
    const env = {
      CLAIMS_BASE_URL: sandbox.url,
      CLAIMS_API_KEY: 'live_bank_network_key_0001',
      CLAIMS_CA_FILE: certificates.caPem,
      CLAIMS_CLIENT_KEY_PASSPHRASE_FILE: passphraseFile,
    };
    const run = await runBin(
      [
        'import',
        'one.csv',
        '--mapping',
        genericMapping,
        '--evidence-dir',
        'evidence',
        '--client-pfx',
        certificates.clientPfx,
        '--log-level',
        'warn',
      ],
      env,
      { cwd: workspace.dir },
    );
    expect(run.exitCode, run.stderr).toBe(0);
  });
});
