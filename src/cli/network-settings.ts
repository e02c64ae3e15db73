import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { NetworkOptions } from '../api/client/config.js';
import { UsageError } from './exit-codes.js';
import { codeOf } from '../errors/coded-error.js';

/**
 * The way to the service from inside a bank's network, from flags and the
 * environment: a proxy, extra CAs, a client certificate. Files are read here (a file that cannot
 * be read stops the run, exit 2, naming the flag); the passphrase only ever from the environment
 * or a file, never a flag (a flag shows in `ps`).
 */
export interface NetworkFlags {
  proxy?: string | undefined;
  caFile?: string | undefined;
  clientCert?: string | undefined;
  clientKey?: string | undefined;
  clientPfx?: string | undefined;
}

/** The network flags, on every command that talks to the service. */
export function addNetworkOptions(command: Command): Command {
  return command
    .option(
      '--proxy <url>',
      'HTTP(S) proxy for the service, e.g. http://user:password@proxy.bank:3128 (default: CLAIMS_PROXY, ' +
        'else HTTPS_PROXY / https_proxy, with NO_PROXY honoured as curl does)',
    )
    .option(
      '--ca-file <pem>',
      "CA certificates (PEM) trusted in addition to the system's, e.g. the bank's own root (default: CLAIMS_CA_FILE)",
    )
    .option(
      '--client-cert <pem>',
      "client certificate for mutual TLS (default: CLAIMS_CLIENT_CERT); its key's passphrase from " +
        'CLAIMS_CLIENT_KEY_PASSPHRASE or CLAIMS_CLIENT_KEY_PASSPHRASE_FILE',
    )
    .option('--client-key <pem>', "the client certificate's private key (default: CLAIMS_CLIENT_KEY)")
    .option(
      '--client-pfx <file>',
      'client certificate and key as one PKCS#12 bundle (.p12/.pfx) instead (default: CLAIMS_CLIENT_PFX)',
    );
}

export async function resolveNetwork(flags: NetworkFlags, env: NodeJS.ProcessEnv): Promise<NetworkOptions> {
  const pick = (flag: string | undefined, variable: string) => {
    const value = flag ?? env[variable];
    return value === undefined || value.trim() === ''
      ? undefined
      : {
          value,
          from:
            flag === undefined
              ? variable
              : `--${variable
                  .replace(/^CLAIMS_/, '')
                  .toLowerCase()
                  .replace(/_/g, '-')}`,
        };
  };
  const caFile = pick(flags.caFile, 'CLAIMS_CA_FILE');
  const cert = pick(flags.clientCert, 'CLAIMS_CLIENT_CERT');
  const key = pick(flags.clientKey, 'CLAIMS_CLIENT_KEY');
  const pfx = pick(flags.clientPfx, 'CLAIMS_CLIENT_PFX');
  if (pfx !== undefined && (cert !== undefined || key !== undefined)) {
    throw new UsageError(`${pfx.from}: expected a PKCS#12 bundle or a PEM certificate and key, got both`);
  }
  return {
    proxy: pick(flags.proxy, 'CLAIMS_PROXY')?.value,
    env,
    ca: caFile === undefined ? undefined : await readNamed(caFile, 'a PEM file of CA certificates'),
    cert: cert === undefined ? undefined : await readNamed(cert, 'a PEM certificate'),
    key: key === undefined ? undefined : await readNamed(key, 'a PEM private key'),
    pfx: pfx === undefined ? undefined : await readNamed(pfx, 'a PKCS#12 bundle'),
    passphrase: await passphraseOf(env),
  };
}

async function passphraseOf(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (env.CLAIMS_CLIENT_KEY_PASSPHRASE !== undefined && env.CLAIMS_CLIENT_KEY_PASSPHRASE !== '')
    return env.CLAIMS_CLIENT_KEY_PASSPHRASE;
  const file = env.CLAIMS_CLIENT_KEY_PASSPHRASE_FILE;
  if (file === undefined || file === '') return undefined;
  // The whole file, less the line break an editor leaves at its end.
  return (await readNamed({ value: file, from: 'CLAIMS_CLIENT_KEY_PASSPHRASE_FILE' }, 'the passphrase'))
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function readNamed(file: { value: string; from: string }, expected: string): Promise<Buffer> {
  try {
    return await readFile(file.value);
  } catch (error) {
    throw new UsageError(
      `${file.from} ${file.value}: expected a readable file holding ${expected}, got ${codeOf(error) ?? 'unreadable'}`,
      { cause: error },
    );
  }
}
