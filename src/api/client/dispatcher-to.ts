import type { Dispatcher } from 'undici';
import { createDispatcher } from '../network/dispatcher.js';
import { proxySecrets } from '../network/proxy-route.js';
import { wayTo, type NetworkOptions } from './config.js';

/** A connection pool to another origin than the service's, and what its log lines must never hold. */
export interface DispatcherTo {
  dispatcher: Dispatcher;
  /** The proxy's credentials and the client key's passphrase, in every form they travel in. */
  secrets: readonly string[];
}

/**
 * A pool to `url` the way the client reaches the service (docs/network.md): the same proxy (or
 * NO_PROXY's exemption), extra CAs and client certificate, built by the client's own
 * `createDispatcher`. For the jobs' Pushgateway, which sits in the same bank network. One
 * connection, every timeout `timeoutMs`.
 */
export function dispatcherTo(url: URL, network: NetworkOptions | undefined, timeoutMs: number): DispatcherTo {
  const { route, tls } = wayTo(url, network);
  const dispatcher = createDispatcher({
    origin: url.origin,
    route,
    tls,
    connections: 1,
    connectTimeoutMs: timeoutMs,
    headersTimeoutMs: timeoutMs,
    bodyTimeoutMs: timeoutMs,
  });
  return { dispatcher, secrets: [...proxySecrets(route), ...tls.secrets] };
}
