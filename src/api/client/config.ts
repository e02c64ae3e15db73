import { ClaimsConfigError } from '../errors.js';
import { ProxyUrlError, routeFor, type ProxySettings, type Route } from '../network/proxy-route.js';
import { resolveTls, type ResolvedTls, type TlsSettings } from '../network/tls-material.js';

/**
 * The way to the service: a proxy (`proxy`, or the environment's HTTPS_PROXY and
 * NO_PROXY when `env` is given: pass `process.env` to honour them as curl does), CAs trusted in
 * addition to the system's, and a client certificate for mutual TLS.
 */
export type NetworkOptions = ProxySettings & TlsSettings;
import { checkRetryPolicy, defaultRetryPolicy, type RetryPolicy } from '../retry-policy.js';

/** The logging the client needs: pino's `Logger` fits, and so does any object with these two. */
export interface ClientLogger {
  debug(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface ClientOptions {
  /** The service's base address, e.g. `https://claims.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** Sent as the Basic username with an empty password. Read it from the environment or a file. */
  apiKey: string;
  /** Connections in the pool: the caller's request concurrency. Default 8. */
  concurrency?: number;
  connectTimeoutMs?: number;
  /** Time to wait for the response headers after sending. */
  headersTimeoutMs?: number;
  /** Time allowed between two chunks of the response body. */
  bodyTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /**
   * Requests per second for everything this client sends, retries included (`--max-rps`);
   * default: no limit. Any positive number: 0.5 is one request every 2 s.
   */
  maxRps?: number | undefined;
  logger?: ClientLogger;
  /** Injectable for tests: how to wait, where randomness and the clock come from. */
  sleep?: (delayMs: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  userAgent?: string;
  network?: NetworkOptions | undefined;
}

export interface ResolvedOptions {
  origin: string;
  pathPrefix: string;
  apiKey: string;
  concurrency: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  retry: RetryPolicy;
  maxRps: number | undefined;
  logger: ClientLogger;
  sleep: (delayMs: number) => Promise<void>;
  random: () => number;
  now: () => number;
  userAgent: string;
  /** The service's base URL as parsed, for messages and the network probe. */
  target: URL;
  route: Route;
  tls: ResolvedTls;
}

const silentLogger: ClientLogger = { debug: () => undefined, warn: () => undefined };

/** Checks the options once, at the door; messages never contain the key. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  const url = parseBaseUrl(options.baseUrl);
  checkApiKey(options.apiKey);
  return {
    origin: url.origin,
    pathPrefix: url.pathname.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    concurrency: positiveInteger('concurrency', options.concurrency ?? 8),
    connectTimeoutMs: positiveInteger('connectTimeoutMs', options.connectTimeoutMs ?? 10_000),
    headersTimeoutMs: positiveInteger('headersTimeoutMs', options.headersTimeoutMs ?? 30_000),
    bodyTimeoutMs: positiveInteger('bodyTimeoutMs', options.bodyTimeoutMs ?? 30_000),
    retry: checkedPolicy({ ...defaultRetryPolicy, ...options.retry }),
    maxRps: options.maxRps === undefined ? undefined : positiveNumber('maxRps', options.maxRps),
    logger: options.logger ?? silentLogger,
    sleep: options.sleep ?? (async (delayMs) => new Promise((resolve) => setTimeout(resolve, delayMs))),
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
    userAgent: options.userAgent ?? 'bulk-disputes',
    target: url,
    ...wayTo(url, options.network),
  };
}

/**
 * The way out to `url` (the service, or the jobs' Pushgateway: docs/network.md): the proxy route
 * and the TLS material. A key that is not its certificate's, or a wrong passphrase: ConnectionSetupError,
 * before anything is sent.
 */
export function wayTo(url: URL, network: NetworkOptions | undefined): { route: Route; tls: ResolvedTls } {
  return { route: proxyRoute(url, network), tls: resolveTls(network, network?.env ?? {}) };
}

function proxyRoute(url: URL, network: NetworkOptions | undefined): Route {
  try {
    return routeFor(url, network);
  } catch (error) {
    if (error instanceof ProxyUrlError) throw new ClaimsConfigError(error.message);
    throw error;
  }
}

function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ClaimsConfigError(`base URL: expected an http or https URL, got ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ClaimsConfigError(`base URL: expected an http or https URL, got ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new ClaimsConfigError('base URL: expected no credentials in the URL; set CLAIMS_API_KEY instead');
  }
  if (url.search || url.hash) {
    throw new ClaimsConfigError(`base URL: expected no query or fragment, got ${url.search}${url.hash}`);
  }
  return url;
}

function checkApiKey(apiKey: string): void {
  if (apiKey.length === 0) throw new ClaimsConfigError('API key: expected a non-empty key, got an empty one');
  // The key is the Basic username: RFC 7617 forbids a colon in it; control characters break the header.
  // eslint-disable-next-line no-control-regex
  if (/[:\u0000-\u001f\u007f]/.test(apiKey)) {
    throw new ClaimsConfigError(
      'API key: expected no colon, line break or control character, got one (was the file read with its newline?)',
    );
  }
}

function checkedPolicy(policy: RetryPolicy): RetryPolicy {
  try {
    return checkRetryPolicy(policy);
  } catch (error) {
    throw new ClaimsConfigError((error as Error).message);
  }
}

function positiveNumber(name: string, value: number): number {
  if (!(value > 0) || !Number.isFinite(value))
    throw new ClaimsConfigError(`${name}: expected a positive number, got ${String(value)}`);
  return value;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ClaimsConfigError(`${name}: expected a whole number from 1 and up, got ${String(value)}`);
  }
  return value;
}
