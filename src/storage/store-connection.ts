import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { HttpProxyAgent, HttpsProxyAgent } from 'hpagent';
import { describeProxy, routeFor, type ProxySettings, type Route } from '../api/network/proxy-route.js';
import { ObjectStoreCertificateError, ObjectStoreProxyError } from './errors.js';
import type { StoreSettings } from './store-settings.js';

/**
 * How the SDK reaches the store inside a bank's network (docs/network.md, "Object storage"): the
 * claims service's proxy settings, `NO_PROXY` honoured as for the service, and its private CA
 * trusted besides the system's. The SDK itself reads neither: it is given Node agents that do
 * (hpagent, the agent the SDK's own guide names, tunnels with CONNECT to http and https stores alike).
 */
export interface StoreNetwork extends ProxySettings {
  /** The CAs to trust besides the system's (`--ca-file` / `CLAIMS_CA_FILE`). */
  readonly ca?: string | Buffer | undefined;
}

/** Seconds without a byte before a request to the store is given up (and retried by the SDK). */
const idleTimeoutMs = 60_000;
const connectTimeoutMs = 10_000;
/** Connections kept open per store: evidence is read many at a time. */
const maxSockets = 64;

export interface StoreAgents {
  readonly route: Route;
  readonly httpAgent: HttpAgent;
  readonly httpsAgent: HttpsAgent;
  readonly connectionTimeout: number;
  readonly requestTimeout: number;
}

/** The address requests go to: the endpoint, else AWS's regional one (what the route is judged for). */
export function storeUrl(settings: StoreSettings): URL {
  return new URL(settings.endpoint ?? `https://s3.${settings.region}.amazonaws.com`);
}

export function storeAgents(settings: StoreSettings, network: StoreNetwork = {}): StoreAgents {
  const route = routeFor(storeUrl(settings), network);
  const ca = network.ca === undefined ? undefined : [...rootCertificates, network.ca.toString()];
  const common = { keepAlive: true, maxSockets, ...(ca === undefined ? {} : { ca }) };
  const agents =
    route.kind === 'proxy'
      ? {
          httpAgent: new HttpProxyAgent({ ...common, proxy: route.proxy, proxyRequestOptions: proxyTls(ca) }),
          httpsAgent: new HttpsProxyAgent({ ...common, proxy: route.proxy, proxyRequestOptions: proxyTls(ca) }),
        }
      : { httpAgent: new HttpAgent(common), httpsAgent: new HttpsAgent(common) };
  return { route, ...agents, connectionTimeout: connectTimeoutMs, requestTimeout: idleTimeoutMs };
}

/** An `https://` proxy is reached over TLS: the same CAs trusted for it. */
function proxyTls(ca: string[] | undefined): { ca?: string[] } {
  return ca === undefined ? {} : { ca };
}

/** What OpenSSL says of a certificate it will not trust. */
const untrustedCertificate = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_NOT_YET_VALID',
]);

/**
 * A failure of the way to the store rather than of the store: its certificate, or the proxy. A
 * retry cannot fix either, so the run stops with the exit code the same failure has for the
 * service (docs/exit-codes.md). Undefined for anything else.
 */
export function connectionFailure(error: unknown, where: string, route: Route): Error | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && untrustedCertificate.has(code))
    return new ObjectStoreCertificateError(
      `${where}: expected a certificate we trust, got ${code}: give the store's CA with --ca-file (or CLAIMS_CA_FILE); nothing was read`,
      { cause: error },
    );
  if (route.kind !== 'proxy') return undefined;
  const message = error instanceof Error ? error.message : String(error);
  const refused = /^Bad response: (\d+)/.exec(message);
  const unreachable = typeof code === 'string' && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(code);
  if (refused === null && !unreachable) return undefined;
  const got = refused === null ? `no answer (${String(code)})` : `${refused[1] ?? ''} to CONNECT`;
  return new ObjectStoreProxyError(
    `${where}: expected the proxy ${describeProxy(route.proxy)} (${route.reason}) to open a tunnel to the store, got ${got}; ` +
      'nothing was read',
    { cause: error },
  );
}
