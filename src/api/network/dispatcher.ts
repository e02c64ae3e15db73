import { buildConnector, Pool, ProxyAgent, type Dispatcher } from 'undici';
import type { Route } from './proxy-route.js';
import type { ResolvedTls } from './tls-material.js';

export interface DispatcherOptions {
  readonly origin: string;
  readonly route: Route;
  readonly tls: ResolvedTls;
  readonly connections: number;
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
}

/**
 * Errors raised while connecting (refused, DNS, connect timeout, TLS handshake, a proxy refusing
 * the tunnel): the request was never written, so sending it again cannot duplicate anything.
 * Tagged where they arise rather than guessed from their codes, since a reset during a TLS
 * handshake and a reset after sending share the code ECONNRESET.
 */
const failedToConnect = new WeakSet<object>();

export function failedWhileConnecting(error: unknown): boolean {
  return typeof error === 'object' && error !== null && failedToConnect.has(error);
}

type Connector = buildConnector.connector;

function tagging(connect: Connector): Connector {
  return (options, callback) => {
    connect(options, (...args) => {
      const [error] = args;
      if (error) failedToConnect.add(error);
      callback(...args);
    });
  };
}

/**
 * The pool the client sends through: straight to the service, or through the proxy
 * with undici's ProxyAgent (a CONNECT tunnel, TLS to the service inside it; an https:// proxy is
 * itself reached over TLS with the same trusted CAs). Either way with the client certificate and
 * extra CAs, and connect failures tagged for the retry policy.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const tls = options.tls.options ?? {};
  const timeouts = { headersTimeout: options.headersTimeoutMs, bodyTimeout: options.bodyTimeoutMs };
  if (options.route.kind === 'direct') {
    return new Pool(options.origin, {
      ...timeouts,
      connections: options.connections,
      connect: tagging(buildConnector({ ...tls, timeout: options.connectTimeoutMs })),
    });
  }
  const caOnly = tls.ca === undefined ? {} : { ca: tls.ca };
  return new ProxyAgent({
    uri: options.route.proxy.href,
    ...timeouts,
    connections: options.connections,
    requestTls: { ...tls, timeout: options.connectTimeoutMs },
    proxyTls: { ...caOnly, timeout: options.connectTimeoutMs },
    // The per-origin pool inside the agent: its connect (the tunnel, then TLS) tagged like a direct one's.
    factory: (origin, poolOptions) => {
      const given = (poolOptions as { connect?: Connector }).connect;
      return new Pool(
        origin,
        given === undefined ? poolOptions : Object.assign({}, poolOptions, { connect: tagging(given) }),
      );
    },
  });
}
