import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { checkServerIdentity, connect as tlsConnect, type PeerCertificate } from 'node:tls';
import type { Route } from './proxy-route.js';
import type { ResolvedTls } from './tls-material.js';
import { codeOf } from '../../errors/coded-error.js';

export interface ServerCertificate {
  readonly subject: string;
  readonly issuer: string;
  readonly validTo: Date;
  readonly daysLeft: number;
}

/** What one look at the connection saw: the proxy's answer to CONNECT, the TLS version, the server's certificate. */
export interface ProbeResult {
  readonly proxyStatus?: number | undefined;
  /** The proxy's `Proxy-Authenticate` (its scheme and realm) on a 407. */
  readonly proxyAuthenticate?: string | undefined;
  readonly tlsVersion?: string | undefined;
  readonly certificate?: ServerCertificate | undefined;
  /** Whether the chain verified against the trusted CAs, and OpenSSL's code when it did not. */
  readonly trusted?: boolean | undefined;
  readonly trustError?: string | undefined;
  /** Set when the certificate does not name the host. */
  readonly hostnameError?: string | undefined;
  /** The connection itself failed: its code. */
  readonly failure?: string | undefined;
  /**
   * What the server said after the handshake, without a request sent: in TLS 1.3 a server that
   * refuses the client's certificate (or its absence) says so with an alert once the handshake
   * is done (`ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED`), which a request only sees as a closed socket.
   */
  readonly afterHandshake?: string | undefined;
}

/** How long the probe listens after the handshake for a server's alert. */
const alertWaitMs = 400;

/**
 * Looks at the way to the service without sending a request: the CONNECT the proxy
 * answers, then a TLS handshake that reads the server's certificate whether or not it verifies,
 * closed at once. Used by `check`, and to name the certificate (subject, expiry) or the proxy's
 * realm when a connection failed for one of them.
 */
export async function probe(target: URL, route: Route, tls: ResolvedTls, timeoutMs: number): Promise<ProbeResult> {
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  let socket: Socket;
  try {
    if (route.kind === 'proxy') {
      const tunnel = await connectThrough(
        route.proxy,
        `${host.includes(':') ? `[${host}]` : host}:${port}`,
        tls,
        timeoutMs,
      );
      if (tunnel.status !== 200) return { proxyStatus: tunnel.status, proxyAuthenticate: tunnel.authenticate };
      socket = tunnel.socket;
    } else {
      socket = await connectDirect(host, port, timeoutMs);
    }
  } catch (error) {
    return { failure: codeOf(error) ?? (error as Error).message };
  }
  const proxyStatus = route.kind === 'proxy' ? 200 : undefined;
  if (target.protocol !== 'https:') {
    socket.destroy();
    return { proxyStatus };
  }
  return { proxyStatus, ...(await handshake(socket, host, tls, timeoutMs)) };
}

async function connectDirect(host: string, port: number, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => {
      resolve(socket);
    });
    socket.once('timeout', () => socket.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })));
    socket.once('error', reject);
  });
}

async function connectThrough(
  proxy: URL,
  authority: string,
  tls: ResolvedTls,
  timeoutMs: number,
): Promise<{ status: number; authenticate?: string; socket: Socket }> {
  const headers: Record<string, string> = { host: authority };
  if (proxy.username !== '' && proxy.password !== '') {
    headers['proxy-authorization'] =
      `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
  }
  const request = (proxy.protocol === 'https:' ? httpsRequest : httpRequest)({
    host: proxy.hostname,
    port: Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80)),
    method: 'CONNECT',
    path: authority,
    headers,
    timeout: timeoutMs,
    ...(proxy.protocol === 'https:' && tls.options?.ca !== undefined ? { ca: tls.options.ca } : {}),
  });
  return new Promise((resolve, reject) => {
    request.once('connect', (response: IncomingMessage, socket: Socket) => {
      const authenticate = response.headers['proxy-authenticate'];
      resolve({
        status: response.statusCode ?? 0,
        authenticate: Array.isArray(authenticate) ? authenticate.join(', ') : authenticate,
        socket,
      });
      if (response.statusCode !== 200) socket.destroy();
    });
    request.once('timeout', () => request.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })));
    request.once('error', reject);
    request.end();
  });
}

async function handshake(socket: Socket, host: string, tls: ResolvedTls, timeoutMs: number): Promise<ProbeResult> {
  return new Promise((resolve) => {
    // Verification is done below, by hand: the point is to see the certificate even when it fails.
    const secure = tlsConnect({
      ...(tls.options ?? {}),
      socket,
      servername: isIP(host) === 0 ? host : undefined,
      rejectUnauthorized: false,
    });
    const timer = setTimeout(
      () => secure.destroy(Object.assign(new Error('TLS handshake timeout'), { code: 'ETIMEDOUT' })),
      timeoutMs,
    );
    let handshaken: ProbeResult | undefined;
    secure.once('secureConnect', () => {
      clearTimeout(timer);
      const peer = secure.getPeerCertificate();
      handshaken = {
        tlsVersion: secure.getProtocol() ?? undefined,
        certificate: describeCertificate(peer),
        trusted: secure.authorized,
        trustError: secure.authorized ? undefined : String(secure.authorizationError),
        hostnameError: checkServerIdentity(host, peer)?.message,
      };
      // Listen a moment for the server's verdict on the client certificate, then hang up. A server
      // that verifies client certificates itself (Node's does) just hangs up on one it refuses.
      secure.resume();
      secure.once('end', () => {
        resolve({ ...(handshaken ?? {}), afterHandshake: 'closed' });
      });
      setTimeout(() => {
        resolve(handshaken ?? {});
        secure.destroy();
      }, alertWaitMs);
    });
    secure.once('error', (error: Error & { code?: string }) => {
      clearTimeout(timer);
      const code = error.code ?? error.message;
      resolve(handshaken === undefined ? { failure: code } : { ...handshaken, afterHandshake: code });
    });
  });
}

function describeCertificate(peer: PeerCertificate): ServerCertificate | undefined {
  if (!('valid_to' in peer)) return undefined;
  const validTo = new Date(peer.valid_to);
  const name = (fields: object | undefined) =>
    Object.entries(fields ?? {})
      .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : String(value)}`)
      .join(', ');
  return {
    subject: name(peer.subject),
    issuer: name(peer.issuer),
    validTo,
    daysLeft: Math.floor((validTo.getTime() - Date.now()) / 86_400_000),
  };
}
