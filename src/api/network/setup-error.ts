import { CodedError } from '../../errors/coded-error.js';

/**
 * The network between the job and the service is set up wrongly: the server's
 * certificate is not trusted, the service wants a client certificate it did not get, the proxy
 * refuses the tunnel. Sending again cannot help, so nothing is retried: the run stops with the
 * category's exit code and a message naming the cause and the fix. Nothing was sent.
 */
export type SetupCategory = 'server-certificate' | 'client-certificate' | 'proxy';

export type SetupCode =
  | 'CLAIMS_TLS_UNTRUSTED'
  | 'CLAIMS_TLS_EXPIRED'
  | 'CLAIMS_TLS_HOSTNAME'
  | 'CLAIMS_TLS_CLIENT_CERT_REQUIRED'
  | 'CLAIMS_TLS_CLIENT_CERT_REFUSED'
  | 'CLAIMS_TLS_CLIENT_KEY_MISMATCH'
  | 'CLAIMS_TLS_CLIENT_KEY_PASSPHRASE'
  | 'CLAIMS_TLS_CLIENT_CERT_UNREADABLE'
  | 'CLAIMS_PROXY_AUTH_REQUIRED'
  | 'CLAIMS_PROXY_FORBIDDEN'
  | 'CLAIMS_PROXY_REFUSED'
  | 'CLAIMS_PROXY_UNREACHABLE';

const categories: Record<SetupCode, SetupCategory> = {
  CLAIMS_TLS_UNTRUSTED: 'server-certificate',
  CLAIMS_TLS_EXPIRED: 'server-certificate',
  CLAIMS_TLS_HOSTNAME: 'server-certificate',
  CLAIMS_TLS_CLIENT_CERT_REQUIRED: 'client-certificate',
  CLAIMS_TLS_CLIENT_CERT_REFUSED: 'client-certificate',
  CLAIMS_TLS_CLIENT_KEY_MISMATCH: 'client-certificate',
  CLAIMS_TLS_CLIENT_KEY_PASSPHRASE: 'client-certificate',
  CLAIMS_TLS_CLIENT_CERT_UNREADABLE: 'client-certificate',
  CLAIMS_PROXY_AUTH_REQUIRED: 'proxy',
  CLAIMS_PROXY_FORBIDDEN: 'proxy',
  CLAIMS_PROXY_REFUSED: 'proxy',
  CLAIMS_PROXY_UNREACHABLE: 'proxy',
};

export class ConnectionSetupError extends CodedError {
  readonly code: SetupCode;
  readonly category: SetupCategory;
  /** The request that met it, when one did (`GET /v2/issuer/claims`); empty when found before sending. */
  readonly request: string;

  constructor(code: SetupCode, message: string, options: { request?: string; cause?: unknown } = {}) {
    super(options.request === undefined || options.request === '' ? message : `${options.request}: ${message}`, {
      cause: options.cause,
    });
    this.name = 'ConnectionSetupError';
    this.code = code;
    this.category = categories[code];
    this.request = options.request ?? '';
  }
}
