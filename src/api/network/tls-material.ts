import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type ConnectionOptions } from 'node:tls';
import { ConnectionSetupError } from './setup-error.js';
import { codeOf } from '../../errors/coded-error.js';

/**
 * What the client presents and trusts over TLS, as contents (the CLI reads the files):
 * extra CAs trusted in addition to the system's roots, and a client certificate for mutual TLS, as
 * PEM certificate and key or a PKCS#12 bundle, with the key's passphrase.
 */
export interface TlsSettings {
  /** PEM: one or more CA certificates, e.g. the bank's own root. */
  readonly ca?: string | Buffer | undefined;
  readonly cert?: string | Buffer | undefined;
  readonly key?: string | Buffer | undefined;
  /** PKCS#12 (.p12 / .pfx): certificate and key in one file. */
  readonly pfx?: Buffer | undefined;
  readonly passphrase?: string | undefined;
}

export interface ResolvedTls {
  /** For undici's connectors (tls.connect options). Undefined: Node's defaults. */
  readonly options: ConnectionOptions | undefined;
  readonly clientCertificate: boolean;
  /** Secrets a log line must never hold: the key's passphrase. */
  readonly secrets: readonly string[];
}

/**
 * The options, checked once before anything is sent: a key that does not belong to its
 * certificate, or a wrong passphrase, stops the run here with a message saying which.
 * `--ca-file` adds to the system's roots rather than replacing them; certificates from
 * NODE_EXTRA_CA_CERTS are kept too (Node adds them to its default store, which a `ca` option
 * would otherwise replace).
 */
export function resolveTls(
  settings: TlsSettings = {},
  env: Readonly<Record<string, string | undefined>> = {},
): ResolvedTls {
  const clientCertificate = settings.pfx !== undefined || settings.cert !== undefined;
  if (settings.cert !== undefined && settings.key === undefined) {
    throw new ConnectionSetupError(
      'CLAIMS_TLS_CLIENT_CERT_UNREADABLE',
      'client certificate: expected its key too (--client-key or CLAIMS_CLIENT_KEY), got none',
    );
  }
  if (settings.key !== undefined && settings.cert === undefined) {
    throw new ConnectionSetupError(
      'CLAIMS_TLS_CLIENT_CERT_UNREADABLE',
      'client key: expected its certificate too (--client-cert or CLAIMS_CLIENT_CERT), got none',
    );
  }
  const options: ConnectionOptions = {};
  if (settings.ca !== undefined) options.ca = [...rootCertificates, ...extraCaCertificates(env), String(settings.ca)];
  if (settings.cert !== undefined) options.cert = settings.cert;
  if (settings.key !== undefined) options.key = settings.key;
  if (settings.pfx !== undefined) options.pfx = settings.pfx;
  if (settings.passphrase !== undefined) options.passphrase = settings.passphrase;
  if (Object.keys(options).length === 0) return { options: undefined, clientCertificate: false, secrets: [] };
  checkContext(options);
  return {
    options,
    clientCertificate,
    secrets: settings.passphrase === undefined || settings.passphrase === '' ? [] : [settings.passphrase],
  };
}

function extraCaCertificates(env: Readonly<Record<string, string | undefined>>): string[] {
  const file = env.NODE_EXTRA_CA_CERTS;
  if (file === undefined || file === '') return [];
  try {
    return [readFileSync(file, 'utf8')];
  } catch {
    // Node itself warns about an unreadable NODE_EXTRA_CA_CERTS and goes on without it.
    return [];
  }
}

/** OpenSSL's words for what is wrong, turned into which file to fix. */
function checkContext(options: ConnectionOptions): void {
  try {
    createSecureContext(options);
  } catch (error) {
    const text = `${codeOf(error) ?? ''} ${(error as Error).message}`;
    if (/KEY_VALUES_MISMATCH|key values mismatch/i.test(text)) {
      throw new ConnectionSetupError(
        'CLAIMS_TLS_CLIENT_KEY_MISMATCH',
        'client key: expected the private key of the client certificate, got another key (check --client-cert and --client-key are a pair)',
        { cause: error },
      );
    }
    if (/BAD_DECRYPT|bad decrypt|mac verify|INTERRUPTED_OR_CANCELLED|bad password|unable to decrypt/i.test(text)) {
      throw new ConnectionSetupError(
        'CLAIMS_TLS_CLIENT_KEY_PASSPHRASE',
        'client key: expected the passphrase that decrypts it, got a wrong or missing one (set ' +
          'CLAIMS_CLIENT_KEY_PASSPHRASE or CLAIMS_CLIENT_KEY_PASSPHRASE_FILE)',
        { cause: error },
      );
    }
    throw new ConnectionSetupError(
      'CLAIMS_TLS_CLIENT_CERT_UNREADABLE',
      `TLS files: expected PEM certificates and a PEM (or PKCS#12) key, got ones OpenSSL cannot read (${(error as Error).message})`,
      { cause: error },
    );
  }
}
