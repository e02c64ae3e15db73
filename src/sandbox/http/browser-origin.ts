import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { simpleError, type SandboxHttpError } from './errors.js';

/**
 * Refuses a request a web page made (docs/sandbox.md, "What a web page cannot do to a running
 * sandbox"). The sandbox's callers (our client, curl, the library) send neither `Origin` nor
 * `Sec-Fetch-Site`; a browser sends one or both with every request a page makes, and a page on
 * another site or port, or a `file://` page, names that in them. Only the sandbox's own pages
 * (`/docs`, whose "Try it out" sends requests from the sandbox's origin) and an address typed
 * into the browser (`Sec-Fetch-Site: none`) pass. 403 `{message}`; undefined when it may go on.
 */
export function refuseBrowserOrigin(request: IncomingMessage): SandboxHttpError | undefined {
  const { origin, 'sec-fetch-site': fetchSite } = request.headers;
  // The common case (no browser): two lookups, nothing built.
  if (origin === undefined && fetchSite === undefined) return undefined;
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none')
    return refused(`Sec-Fetch-Site: ${fetchSite}`);
  if (origin !== undefined && origin.toLowerCase() !== ownOrigin(request)) return refused(`Origin: ${origin}`);
  return undefined;
}

/**
 * The origin the request was sent to, as the browser spells it. A page whose name resolves to
 * this machine (DNS rebinding) passes this test, but the browser holds no key for that origin
 * and the page does not know one: the key is what stops it.
 */
function ownOrigin(request: IncomingMessage): string {
  const scheme = (request.socket as Partial<TLSSocket>).encrypted === true ? 'https' : 'http';
  return `${scheme}://${(request.headers.host ?? '').toLowerCase()}`;
}

function refused(got: string): SandboxHttpError {
  return simpleError(
    403,
    `cross-origin request refused: expected a request from a client, curl or this sandbox's own pages, got ${got}`,
  );
}
