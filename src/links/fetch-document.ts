import { createHash } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { CodedError, RefusalError, codeOf } from '../errors/coded-error.js';
import { forbiddenReason } from './forbidden-addresses.js';

/** A link the mapping does not allow, or one that leads where no link may go: nothing was fetched from it. */
export class DocumentNotAllowedError extends RefusalError {
  readonly code = 'evidence_not_allowed';
}

/**
 * Why a document could not be fetched: `status`, its server answered another status than 200;
 * `too-large`, it has more bytes than allowed; `redirects`, too many of them; `transport`, the
 * connection failed or timed out.
 */
export type FetchFailureKind = 'status' | 'too-large' | 'redirects' | 'transport';

/** A document that could not be fetched: too large, refused by its server, or its server unreachable. */
export class DocumentFetchError extends CodedError {
  readonly code = 'evidence_unreadable';
  readonly kind: FetchFailureKind;
  /** The server's status, for `status`. */
  readonly status: number | undefined;
  /** Asking again may succeed: a 5xx or 429, a timeout, a connection reset or refused, a name not resolved for now. */
  readonly transient: boolean;

  constructor(
    message: string,
    details: { kind: FetchFailureKind; status?: number | undefined; transient?: boolean; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = details.kind;
    this.status = details.status;
    this.transient = details.transient ?? false;
  }
}

export interface FetchLimits {
  /**
   * Hosts a link may name, as the mapping lists them: `host` (lower case) for port 443, `host:port`
   * for another port.
   */
  readonly allowedHosts: ReadonlySet<string>;
  /** Bytes a document may have: past them, the body is not read on. */
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  /**
   * The CAs to trust, as a TLS `ca` option takes them: it replaces the system's roots, so a caller
   * adding the service's `--ca-file` passes them too (src/api/network/tls-material.ts does).
   */
  readonly ca?: string | Buffer | readonly (string | Buffer)[] | undefined;
  /**
   * The proxy a URL is fetched through, if any: the caller's choice from the service's settings
   * (src/api/network/proxy-route.ts), so a document goes the way the service is reached.
   */
  readonly proxyFor?: ((url: URL) => URL | undefined) | undefined;
}

export interface FetchedDocument {
  readonly bytes: Buffer;
  readonly sha256: string;
  /** Where it came from after redirects. */
  readonly url: string;
}

/**
 * A document behind an HTTPS link (docs/import.md, "Exports and evidence in object storage or behind links"):
 * its host must be listed; its address is resolved and checked before connecting, and the
 * connection made to exactly that address (a second resolution cannot send it elsewhere), through
 * the proxy too: the tunnel is asked for the checked address, never the name, and TLS still
 * checks the certificate against the name; each redirect is checked the same way, at most
 * `maxRedirects`; the body is read up to `maxBytes` within `timeoutMs`.
 */
export async function fetchDocument(link: string, limits: FetchLimits): Promise<FetchedDocument> {
  let url = parsedLink(link);
  for (let redirects = 0; ; redirects++) {
    const address = await checkedAddress(url, limits, link);
    const { dispatcher, target, headers } = connection(url, address, limits);
    try {
      const answer = await request(target, {
        dispatcher,
        method: 'GET',
        headers,
        signal: AbortSignal.timeout(limits.timeoutMs),
      });
      if (answer.statusCode >= 300 && answer.statusCode < 400 && typeof answer.headers.location === 'string') {
        await answer.body.dump();
        if (redirects >= limits.maxRedirects)
          throw new DocumentFetchError(
            `${link}: expected a document, got more than ${String(limits.maxRedirects)} redirects`,
            { kind: 'redirects' },
          );
        url = parsedLink(new URL(answer.headers.location, url).href, link);
        continue;
      }
      if (answer.statusCode !== 200) {
        await answer.body.dump();
        throw new DocumentFetchError(
          `${link}: expected the document, got HTTP ${String(answer.statusCode)} from ${url.host}`,
          {
            kind: 'status',
            status: answer.statusCode,
            transient: answer.statusCode >= 500 || answer.statusCode === 429,
          },
        );
      }
      const declared = Number(answer.headers['content-length'] ?? Number.NaN);
      if (declared > limits.maxBytes) {
        answer.body.destroy();
        throw tooLarge(link, limits.maxBytes);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of answer.body) {
        size += (chunk as Buffer).length;
        if (size > limits.maxBytes) {
          answer.body.destroy();
          throw tooLarge(link, limits.maxBytes);
        }
        chunks.push(chunk as Buffer);
      }
      const bytes = Buffer.concat(chunks);
      return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), url: url.href };
    } catch (error) {
      if (error instanceof DocumentFetchError || error instanceof DocumentNotAllowedError) throw error;
      throw new DocumentFetchError(`${link}: expected the document from ${url.host}, got ${describe(error)}`, {
        kind: 'transport',
        transient: transientTransport(error),
        cause: error,
      });
    } finally {
      await dispatcher.close();
    }
  }
}

/**
 * The way to `url` at `address`: straight, the name resolved to that address only; or through
 * the proxy the caller chooses for it (the service's, NO_PROXY read as for the service), the tunnel
 * asked for `address` itself and the name kept for TLS (SNI and the certificate check) and Host.
 */
function connection(
  url: URL,
  address: string,
  limits: FetchLimits,
): { dispatcher: Dispatcher; target: URL; headers: Record<string, string> } {
  const servername = isIP(url.hostname.replace(/^\[|\]$/g, '')) === 0 ? url.hostname : undefined;
  const ca = limits.ca === undefined ? {} : { ca: limits.ca as string | Buffer | (string | Buffer)[] };
  const timeouts = { headersTimeout: limits.timeoutMs, bodyTimeout: limits.timeoutMs };
  const proxy = limits.proxyFor?.(url);
  if (proxy !== undefined) {
    const target = new URL(url.href);
    target.hostname = isIP(address) === 6 ? `[${address}]` : address;
    return {
      dispatcher: new ProxyAgent({
        uri: proxy.href,
        ...timeouts,
        requestTls: { ...ca, ...(servername === undefined ? {} : { servername }) },
        proxyTls: ca,
      }),
      target,
      headers: { host: url.host },
    };
  }
  const dispatcher = new Agent({
    connect: {
      ...ca,
      servername,
      // The address checked, and no other: the connection never resolves the name again.
      lookup: (_hostname, options, callback) => {
        if ((options as { all?: boolean }).all === true) callback(null, [{ address, family: isIP(address) }]);
        else callback(null, address, isIP(address));
      },
    },
    ...timeouts,
  });
  return { dispatcher, target: url, headers: {} };
}

/** What may pass if asked again: the server or the way to it was down or slow for a moment. */
const transientCodes = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

function transientTransport(error: unknown): boolean {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return true;
  const code = codeOf(error) ?? codeOf((error as { cause?: unknown } | undefined)?.cause);
  return code !== undefined && transientCodes.has(code);
}

function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return code === undefined || message.includes(code) ? message : `${message} (${code})`;
}

function tooLarge(link: string, maxBytes: number): DocumentFetchError {
  return new DocumentFetchError(`${link}: expected at most ${String(maxBytes)} bytes, got more: not read further`, {
    kind: 'too-large',
  });
}

function parsedLink(text: string, from = text): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new DocumentNotAllowedError(`${from}: expected an https:// link, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'https:')
    throw new DocumentNotAllowedError(
      `${from}: expected an https:// link, got ${url.protocol}// (${url.host}): nothing was fetched`,
    );
  if (url.username !== '' || url.password !== '')
    throw new DocumentNotAllowedError(
      `${from}: expected a link without credentials in it, got one: nothing was fetched`,
    );
  return url;
}

/** The address to connect to: the host listed (with its port, unless 443), its resolution allowed for it. */
async function checkedAddress(url: URL, limits: FetchLimits, link: string): Promise<string> {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const listedAs = url.port === '' ? host : `${host}:${url.port}`;
  if (!limits.allowedHosts.has(listedAs))
    throw new DocumentNotAllowedError(
      `${link}: expected a host the mapping's evidence_sources.hosts lists, got ${listedAs}${url.href === link ? '' : ` (a redirect to ${url.href})`}: nothing was fetched from it`,
    );
  const addresses = isIP(host) === 0 ? await resolved(host, link) : [{ address: host, family: isIP(host) }];
  for (const { address } of addresses) {
    const reason = forbiddenReason(address, true);
    if (reason !== undefined)
      throw new DocumentNotAllowedError(
        `${link}: expected an address a link may reach, got ${host} resolving to ${reason}: nothing was fetched from it`,
      );
  }
  const first = addresses[0];
  if (first === undefined)
    throw new DocumentFetchError(`${link}: expected ${host} to resolve to an address, got none`, { kind: 'transport' });
  return first.address;
}

async function resolved(host: string, link: string): Promise<{ address: string; family: number }[]> {
  try {
    return await lookup(host, { all: true });
  } catch (error) {
    throw new DocumentFetchError(`${link}: expected ${host} to resolve, got ${describe(error)}`, {
      kind: 'transport',
      transient: codeOf(error) === 'EAI_AGAIN',
      cause: error,
    });
  }
}
