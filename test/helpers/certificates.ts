import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A bank's certificates for TLS tests (docs/network.md), made with the `openssl` command (Debian's
 * openssl; .ci/run installs it when missing): a root CA the tests trust, the service's
 * certificate for 127.0.0.1 and localhost, an expired one, one for another host, one from a CA
 * nobody trusts, and client certificates: a good one (its key also encrypted, and as PKCS#12), one
 * from the untrusted CA, and a key that belongs to no certificate. EC P-256 keys: fast to make.
 */
export interface Certificates {
  readonly dir: string;
  readonly caPem: string;
  readonly serverPem: string;
  readonly serverKey: string;
  readonly expiredPem: string;
  readonly wrongHostPem: string;
  readonly wrongHostKey: string;
  readonly untrustedPem: string;
  readonly clientPem: string;
  readonly clientKey: string;
  readonly clientKeyEncrypted: string;
  readonly clientPassphrase: string;
  readonly clientPfx: string;
  readonly pfxPassphrase: string;
  readonly strangerClientPem: string;
  readonly strangerClientKey: string;
  readonly otherKey: string;
  read(file: string): Promise<Buffer>;
  remove(): Promise<void>;
}

const run = promisify(execFile);

export async function makeCertificates(): Promise<Certificates> {
  const dir = await mkdtemp(join(tmpdir(), 'bank-certificates-'));
  const path = (name: string) => join(dir, name);
  const openssl = async (...args: string[]) => run('openssl', args, { cwd: dir });
  const newKey = async (name: string) =>
    openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', path(name));
  const selfSignedCa = async (name: string, subject: string) => {
    await newKey(`${name}.key`);
    await openssl(
      'req',
      '-x509',
      '-new',
      '-key',
      path(`${name}.key`),
      '-out',
      path(`${name}.pem`),
      '-days',
      '30',
      '-subj',
      subject,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
  };
  const extensions = async (name: string, lines: string) => {
    await writeFile(path(name), lines);
    return path(name);
  };
  const signed = async (name: string, subject: string, ca: string, extensionsFile: string) => {
    await newKey(`${name}.key`);
    await openssl('req', '-new', '-key', path(`${name}.key`), '-out', path(`${name}.csr`), '-subj', subject);
    await openssl(
      'x509',
      '-req',
      '-in',
      path(`${name}.csr`),
      '-CA',
      path(`${ca}.pem`),
      '-CAkey',
      path(`${ca}.key`),
      '-CAcreateserial',
      '-days',
      '30',
      '-out',
      path(`${name}.pem`),
      '-extfile',
      extensionsFile,
    );
  };
  await selfSignedCa('ca', '/O=Test Bank/CN=Test Bank Root CA');
  await selfSignedCa('stranger-ca', '/O=Nobody/CN=Untrusted Root CA');
  const serverExtensions = await extensions(
    'server.ext',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  const clientExtensions = await extensions('client.ext', 'extendedKeyUsage=clientAuth\n');
  await signed('server', '/O=Claims Service/CN=claims.test', 'ca', serverExtensions);
  await signed(
    'wrong-host',
    '/O=Claims Service/CN=elsewhere.test',
    'ca',
    await extensions('wrong-host.ext', 'subjectAltName=DNS:elsewhere.test\nextendedKeyUsage=serverAuth\n'),
  );
  await signed('untrusted', '/O=Claims Service/CN=claims.test', 'stranger-ca', serverExtensions);
  await signed('client', '/O=Test Bank/CN=nightly-job', 'ca', clientExtensions);
  await signed('stranger-client', '/O=Nobody/CN=someone', 'stranger-ca', clientExtensions);
  await newKey('other.key');
  // Expired: OpenSSL 3.0's x509 cannot back-date, its `ca` command can.
  await writeFile(path('index.txt'), '');
  await writeFile(path('serial'), '1000\n');
  await writeFile(
    path('ca.cnf'),
    '[ca]\ndefault_ca = test\n[test]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\ndefault_md = sha256\npolicy = any\n[any]\ncommonName = supplied\n[server]\nsubjectAltName = IP:127.0.0.1,DNS:localhost\n',
  );
  await openssl(
    'ca',
    '-config',
    'ca.cnf',
    '-batch',
    '-notext',
    '-cert',
    'ca.pem',
    '-keyfile',
    'ca.key',
    '-startdate',
    '20200101000000Z',
    '-enddate',
    '20210101000000Z',
    '-extensions',
    'server',
    '-in',
    'server.csr',
    '-out',
    'expired.pem',
  );
  const clientPassphrase = 'nightly-passphrase-7Q2';
  const pfxPassphrase = 'pfx-passphrase-K9w';
  await openssl(
    'pkey',
    '-in',
    path('client.key'),
    '-aes256',
    '-passout',
    `pass:${clientPassphrase}`,
    '-out',
    path('client-encrypted.key'),
  );
  await openssl(
    'pkcs12',
    '-export',
    '-in',
    path('client.pem'),
    '-inkey',
    path('client.key'),
    '-passout',
    `pass:${pfxPassphrase}`,
    '-out',
    path('client.p12'),
  );
  return {
    dir,
    caPem: path('ca.pem'),
    serverPem: path('server.pem'),
    serverKey: path('server.key'),
    expiredPem: path('expired.pem'),
    wrongHostPem: path('wrong-host.pem'),
    wrongHostKey: path('wrong-host.key'),
    untrustedPem: path('untrusted.pem'),
    clientPem: path('client.pem'),
    clientKey: path('client.key'),
    clientKeyEncrypted: path('client-encrypted.key'),
    clientPassphrase,
    clientPfx: path('client.p12'),
    pfxPassphrase,
    strangerClientPem: path('stranger-client.pem'),
    strangerClientKey: path('stranger-client.key'),
    otherKey: path('other.key'),
    read: async (file) => readFile(file),
    remove: async () => rm(dir, { recursive: true, force: true }),
  };
}
