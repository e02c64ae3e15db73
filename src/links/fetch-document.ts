import { createHash } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { CodedError, RefusalError } from '../errors/coded-error.js';
import { forbiddenReason } from './forbidden-addresses.js';

/** A link the mapping does not allow, or one that leads where no link may go: nothing was fetched from it. */
export class DocumentNotAllowedError extends RefusalError {
  readonly code = 'evidence_not_allowed';
}

/** A document that could not be fetched: too large, refused by its server, or its server unreachable. */
export class DocumentFetchError extends CodedError {
  readonly code = 'evidence_unreadable';
}

export interface FetchLimits {
  /** Hosts a link may name, as the mapping lists them (lower case). */
  readonly allowedHosts: ReadonlySet<string>;
  /** Bytes a document may have: past them, the body is not read on. */
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  /** The CAs to trust besides the system's (the service's `--ca-file`). */
  readonly ca?: string | Buffer | undefined;
}

export interface FetchedDocument {
  readonly bytes: Buffer;
  readonly sha256: string;
  /** Where it came from after redirects. */
  readonly url: string;
}

/**
 * A document behind an HTTPS link (docs/import.md, "Exports and evidence in object storage or
 * behind links"): its host must be listed; its address is resolved and checked before connecting,
 * and the connection made to exactly that address (a second resolution cannot send it elsewhere);
 * each redirect is checked the same way, at most `maxRedirects`; the body is read up to
 * `maxBytes` within `timeoutMs`.
 */
export async function fetchDocument(link: string, limits: FetchLimits): Promise<FetchedDocument> {
  let url = parsedLink(link);
  for (let redirects = 0; ; redirects++) {
    const address = await checkedAddress(url, limits, link);
    const agent = new Agent({
      connect: {
        ...(limits.ca === undefined ? {} : { ca: limits.ca }),
        servername: isIP(url.hostname) === 0 ? url.hostname : undefined,
        // The address checked above, and no other: the connection never resolves the name again.
        lookup: (_hostname, options, callback) => {
          if ((options as { all?: boolean }).all === true) callback(null, [{ address, family: isIP(address) }]);
          else callback(null, address, isIP(address));
        },
      },
      headersTimeout: limits.timeoutMs,
      bodyTimeout: limits.timeoutMs,
    });
    try {
      const answer = await request(url, {
        dispatcher: agent,
        method: 'GET',
        signal: AbortSignal.timeout(limits.timeoutMs),
      });
      if (answer.statusCode >= 300 && answer.statusCode < 400 && typeof answer.headers.location === 'string') {
        await answer.body.dump();
        if (redirects >= limits.maxRedirects)
          throw new DocumentFetchError(
            `${link}: expected a document, got more than ${String(limits.maxRedirects)} redirects`,
          );
        url = parsedLink(new URL(answer.headers.location, url).href, link);
        continue;
      }
      if (answer.statusCode !== 200) {
        await answer.body.dump();
        throw new DocumentFetchError(
          `${link}: expected the document, got HTTP ${String(answer.statusCode)} from ${url.host}`,
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
      throw new DocumentFetchError(`${link}: expected the document from ${url.host}, got ${(error as Error).message}`, {
        cause: error,
      });
    } finally {
      await agent.close();
    }
  }
}

function tooLarge(link: string, maxBytes: number): DocumentFetchError {
  return new DocumentFetchError(`${link}: expected at most ${String(maxBytes)} bytes, got more: not read further`);
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

/** The address to connect to: the host listed, its resolution allowed for it. */
async function checkedAddress(url: URL, limits: FetchLimits, link: string): Promise<string> {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!limits.allowedHosts.has(host))
    throw new DocumentNotAllowedError(
      `${link}: expected a host the mapping's evidence.allowed_hosts lists, got ${host}${url.href === link ? '' : ` (a redirect to ${url.href})`}: nothing was fetched from it`,
    );
  const addresses = isIP(host) === 0 ? await lookup(host, { all: true }) : [{ address: host, family: isIP(host) }];
  for (const { address } of addresses) {
    const reason = forbiddenReason(address, true);
    if (reason !== undefined)
      throw new DocumentNotAllowedError(`${link}: ${host} resolves to ${reason}: nothing was fetched from it`);
  }
  const first = addresses[0];
  if (first === undefined) throw new DocumentFetchError(`${link}: ${host} resolves to no address`);
  return first.address;
}
