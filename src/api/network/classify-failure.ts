import { describeProxy, type Route } from './proxy-route.js';
import { probe, type ProbeResult } from './probe.js';
import { ConnectionSetupError } from './setup-error.js';
import type { ResolvedTls } from './tls-material.js';

export interface FailureContext {
  readonly target: URL;
  readonly route: Route;
  readonly tls: ResolvedTls;
  readonly connectTimeoutMs: number;
  /** `GET /v2/issuer/claims`, for the message. */
  readonly request: string;
  /** The failure came while connecting (the handshake itself), not after it. */
  readonly whileConnecting: boolean;
  /**
   * One look at the connection after one closed (no request sent), made once per client and its
   * verdict shared: every request in flight when the service hung up meets the same one, and a
   * service that drops kept-alive connections does not cost a look for each.
   */
  readonly lookAfterClose: () => Promise<ProbeResult>;
}

/** OpenSSL's verification codes for a chain that does not lead to a trusted CA. */
const untrustedCodes = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
]);
/** TLS alerts a server sends when it refuses the client's certificate. */
const refusedClientCertificateCodes = new Set([
  ...[
    'BAD_CERTIFICATE',
    'CERTIFICATE_EXPIRED',
    'CERTIFICATE_REVOKED',
    'CERTIFICATE_UNKNOWN',
    'UNSUPPORTED_CERTIFICATE',
  ].map((alert) => `ERR_SSL_SSLV3_ALERT_${alert}`),
  ...['UNKNOWN_CA', 'ACCESS_DENIED', 'DECRYPT_ERROR'].map((alert) => `ERR_SSL_TLSV1_ALERT_${alert}`),
]);
/** A connection the server closed before answering. */
const closedCodes = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);
/** A proxy that cannot be reached at all: retrying does not bring it back within a run. */
const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * A connection failure that retrying cannot fix, as a ConnectionSetupError naming the cause and
 * the fix, or undefined for the failures the retry policy handles (a reset, a timeout,
 * a proxy's connect timeout included). For an untrusted or expired certificate and a proxy's 407,
 * one more look at the connection (`probe`, no request sent) names the certificate's subject and
 * expiry, or the proxy's realm.
 */
export async function classifyFailure(
  error: unknown,
  context: FailureContext,
): Promise<ConnectionSetupError | undefined> {
  const codes = codesIn(error);
  return (
    (await serverCertificateFailure(error, codes, context)) ??
    (await clientCertificateFailure(error, codes, context)) ??
    (context.route.kind === 'proxy' ? proxyFailure(error, codes, context, context.route.proxy) : undefined)
  );
}

/** The service's certificate: issued for another host, expired, or not leading to a trusted CA. */
async function serverCertificateFailure(
  error: unknown,
  codes: readonly string[],
  context: FailureContext,
): Promise<ConnectionSetupError | undefined> {
  const has = (test: (code: string) => boolean) => codes.some(test);
  const request = context.request;
  const service = context.target.host;
  if (has((code) => code === 'ERR_TLS_CERT_ALTNAME_INVALID')) {
    const reason = reasonIn(error) ?? 'the certificate names other hosts';
    return new ConnectionSetupError(
      'CLAIMS_TLS_HOSTNAME',
      `server certificate: expected one issued for ${context.target.hostname}, got another (${reason}); use ` +
        `the host name the certificate names in the base URL`,
      { request, cause: error },
    );
  }
  if (has((code) => code === 'CERT_HAS_EXPIRED')) {
    const seen = await look(context);
    const expiry =
      seen.certificate === undefined
        ? ''
        : ` (${seen.certificate.subject}, expired ${seen.certificate.validTo.toISOString()})`;
    return new ConnectionSetupError(
      'CLAIMS_TLS_EXPIRED',
      `server certificate of ${service}: expected a valid one, got an expired one${expiry}; the service (or the proxy presenting it) must renew it`,
      { request, cause: error },
    );
  }
  if (has((code) => untrustedCodes.has(code))) {
    const seen = await look(context);
    const cert =
      seen.certificate === undefined
        ? ''
        : ` (subject ${seen.certificate.subject}; issuer ${seen.certificate.issuer}; expires ${seen.certificate.validTo.toISOString()})`;
    return new ConnectionSetupError(
      'CLAIMS_TLS_UNTRUSTED',
      `server certificate of ${service}: expected one issued by a trusted CA, got ` +
        `${codes.find((code) => untrustedCodes.has(code)) ?? 'an untrusted one'}${cert}; add the bank's CA ` +
        `with --ca-file (CLAIMS_CA_FILE)`,
      { request, cause: error },
    );
  }
  return undefined;
}

/**
 * The client's certificate: asked for and not given, or refused. `codes` gains the verdict of the
 * look after a close, for the proxy's checks that follow.
 */
async function clientCertificateFailure(
  error: unknown,
  codes: string[],
  context: FailureContext,
): Promise<ConnectionSetupError | undefined> {
  const has = (test: (code: string) => boolean) => codes.some(test);
  const request = context.request;
  const service = context.target.host;
  // TLS 1.3: the server's alert comes after the handshake, and a request sees only a closed socket.
  // Whether it was the client certificate, one look at the connection (no request) tells.
  if (context.target.protocol === 'https:' && !context.whileConnecting && has((code) => closedCodes.has(code))) {
    const seen = await context.lookAfterClose();
    if (seen.afterHandshake === 'closed') {
      // Hung up after the handshake, before any request: its verdict on the client certificate (or its absence).
      codes.push(
        context.tls.clientCertificate
          ? 'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED'
          : 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
      );
    } else if (seen.afterHandshake !== undefined) codes.push(seen.afterHandshake);
  }
  if (
    has(
      (code) =>
        code === 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' ||
        (code === 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE' && !context.tls.clientCertificate),
    )
  ) {
    return new ConnectionSetupError(
      'CLAIMS_TLS_CLIENT_CERT_REQUIRED',
      `${service} asked for a client certificate and got ` +
        `${context.tls.clientCertificate ? 'none it could use' : 'none'}; give one with --client-cert and ` +
        `--client-key (or --client-pfx)`,
      { request, cause: error },
    );
  }
  if (has((code) => refusedClientCertificateCodes.has(code))) {
    const alert = codes.find((code) => refusedClientCertificateCodes.has(code)) ?? '';
    const why =
      alert === 'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED'
        ? 'it hung up right after the TLS handshake, before any request'
        : alert;
    return new ConnectionSetupError(
      'CLAIMS_TLS_CLIENT_CERT_REFUSED',
      `${service} refused the client certificate (${why}): it is not issued by a CA the service trusts, or has expired; ask the service for the CA it accepts`,
      { request, cause: error },
    );
  }
  return undefined;
}

async function proxyFailure(
  error: unknown,
  codes: readonly string[],
  context: FailureContext,
  proxyUrl: URL,
): Promise<ConnectionSetupError | undefined> {
  const proxy = describeProxy(proxyUrl);
  const request = context.request;
  const status = /Proxy response \((\d+)\)/.exec(messagesIn(error).join(' '))?.[1];
  if (status === '407') {
    const seen = await look(context);
    const realm = seen.proxyAuthenticate === undefined ? '' : ` (${seen.proxyAuthenticate})`;
    const given = proxyUrl.username === '' ? 'none' : 'credentials it refused';
    return new ConnectionSetupError(
      'CLAIMS_PROXY_AUTH_REQUIRED',
      `proxy ${proxy} asked for authentication${realm} and got ${given}; put the user and password in the proxy URL (http://user:password@host:port)`,
      { request, cause: error },
    );
  }
  if (status === '403') {
    return new ConnectionSetupError(
      'CLAIMS_PROXY_FORBIDDEN',
      `proxy ${proxy} refused to open a tunnel to ${context.target.host} (403): ask the proxy's owners to allow it`,
      { request, cause: error },
    );
  }
  if (status !== undefined) {
    return new ConnectionSetupError(
      'CLAIMS_PROXY_REFUSED',
      `proxy ${proxy} answered CONNECT ${context.target.host} with ${status}, expected 200`,
      { request, cause: error },
    );
  }
  const unreachable = codes.find((code) => unreachableCodes.has(code));
  if (unreachable !== undefined && pointsAtProxy(error, proxyUrl)) {
    return new ConnectionSetupError(
      'CLAIMS_PROXY_UNREACHABLE',
      `proxy ${proxy}: expected to reach it, got ${unreachable}; check --proxy, CLAIMS_PROXY or HTTPS_PROXY (and NO_PROXY for hosts that go direct)`,
      { request, cause: error },
    );
  }
  return undefined;
}

/** Whether a system error is about the proxy's address, not the service's. */
function pointsAtProxy(error: unknown, proxy: URL): boolean {
  const port = Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
  return chain(error).some((item) => item.port === port || item.hostname === proxy.hostname);
}

async function look(context: FailureContext): Promise<ProbeResult> {
  return probe(context.target, context.route, context.tls, context.connectTimeoutMs).catch((): ProbeResult => ({}));
}

interface ErrorLink {
  code?: unknown;
  message?: unknown;
  reason?: unknown;
  port?: unknown;
  hostname?: unknown;
  cause?: unknown;
}

/** The error and its causes (undici wraps the system's error), at most eight deep. */
function chain(error: unknown): ErrorLink[] {
  const found: ErrorLink[] = [];
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && found.length < 8) {
    found.push(current);
    current = (current as ErrorLink).cause;
  }
  return found;
}

function codesIn(error: unknown): string[] {
  return chain(error).flatMap((item) => (typeof item.code === 'string' ? [item.code] : []));
}

function messagesIn(error: unknown): string[] {
  return chain(error).flatMap((item) => (typeof item.message === 'string' ? [item.message] : []));
}

function reasonIn(error: unknown): string | undefined {
  return chain(error).find((item) => typeof item.reason === 'string')?.reason as string | undefined;
}
