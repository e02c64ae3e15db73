import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../job-files/html.js';
import type { ReviewSessions } from './sessions.js';

/** The session cookie of the review server on `port`: two servers on one machine keep theirs apart. */
export const sessionCookieFor = (port: number): string => `review_session_${String(port)}`;

export interface Guard {
  /** The random token of the printed address. */
  readonly token: string;
  readonly sessions: ReviewSessions;
  /** This server's origins: known once it listens. */
  readonly origins: () => readonly string[];
  /** The session cookie's name: known once it listens (sessionCookieFor). */
  readonly cookie: () => string;
}

/**
 * The review page shows cardholder data, so every request proves itself (docs/review.md, "Security"):
 * - `Host` must be the address the server listens on: a page of another site whose name is made
 *   to resolve to 127.0.0.1 (DNS rebinding) is refused;
 * - a request another origin's page makes is refused unless it is a top-level navigation (its
 *   `Sec-Fetch-*` headers say so): another port of 127.0.0.1 is the "same site", so the session
 *   cookie goes with its requests, and they must not reach the routes at all;
 * - the session cookie, the token (`Authorization: Bearer …`, or `?token=` as in the printed
 *   address): 401 without, 403 with a wrong token;
 * - the printed address's first load exchanges its token for a session: a cookie holding a fresh
 *   random id (never the token, which any other local server would receive) and a page that moves
 *   on to the same address without it, so it leaves the address bar and the tab's history;
 * - writes (anything but GET and HEAD) only from the page itself: `Origin` must be this server's.
 * No CORS headers are ever sent, so another origin cannot read an answer either.
 */
export function secure(app: FastifyInstance, guard: Guard): void {
  app.addHook('onRequest', async (request, reply) => {
    const origins = guard.origins();
    const hosts = origins.map((origin) => new URL(origin).host);
    if (!hosts.includes(request.headers.host ?? ''))
      return refuse(
        reply,
        421,
        `Host: expected ${hosts.join(' or ')}, got ${JSON.stringify(request.headers.host ?? '')}`,
      );
    const foreign = foreignRequest(request);
    if (foreign !== undefined) return refuse(reply, 403, foreign);
    const proof = proofOf(request, guard);
    if (proof === 'none') return refuse(reply, 401, 'expected the token of the address review printed');
    if (proof === 'stale session')
      return refuse(
        reply,
        401,
        'expected the token of the address review printed, got a session this server does not know ' +
          '(of a review server since stopped?): open the address review printed',
      );
    if (proof === 'wrong token')
      return refuse(reply, 403, 'expected the token of the address review printed, got another');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const origin = request.headers.origin;
      if (origin === undefined || !origins.includes(origin))
        return refuse(
          reply,
          403,
          `Origin: expected this page's (${origins[0] ?? ''}), got ${JSON.stringify(origin ?? 'none')}`,
        );
    }
    if (proof === 'token in the address' && request.method === 'GET' && request.url.split('?')[0] === '/')
      return exchange(request, reply, guard);
    return undefined;
  });
}

/**
 * Fetch metadata (sent by every current browser): what another origin's page may ask is a
 * top-level navigation, e.g. a link to the page; no fetch, script, image or frame of it.
 */
function foreignRequest(request: FastifyRequest): string | undefined {
  const site = request.headers['sec-fetch-site'];
  if (site !== 'cross-site' && site !== 'same-site') return undefined;
  const mode = request.headers['sec-fetch-mode'];
  const destination = request.headers['sec-fetch-dest'];
  if (mode === 'navigate' && destination === 'document') return undefined;
  return `Sec-Fetch-Site: expected a request of this page, got ${site} (${String(mode)}, ${String(destination)})`;
}

type Proof = 'session' | 'token' | 'token in the address' | 'none' | 'stale session' | 'wrong token';

function proofOf(request: FastifyRequest, guard: Guard): Proof {
  const bearer = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer !== undefined) return sameSecret(bearer, guard.token) ? 'token' : 'wrong token';
  const query = (request.query as { token?: unknown } | undefined)?.token;
  if (typeof query === 'string') return sameSecret(query, guard.token) ? 'token in the address' : 'wrong token';
  // @fastify/cookie parses the Cookie header into `request.cookies` before this hook runs.
  const session = request.cookies[guard.cookie()];
  if (session === undefined) return 'none';
  return guard.sessions.has(session) ? 'session' : 'stale session';
}

/**
 * The printed address's token for a session cookie, and on to the same address without the token.
 * Not a 302: a browser that came from another site (the redirect file of `--open`, a link in a
 * mail) carries that site into the redirect, and withholds a SameSite=Strict cookie from it, so the
 * page would answer 401. A page of this origin that moves on (a refresh at once, which replaces the
 * entry in the tab's history) is a navigation of this site: the cookie goes with it.
 */
async function exchange(request: FastifyRequest, reply: FastifyReply, guard: Guard): Promise<FastifyReply> {
  const held = request.cookies[guard.cookie()];
  const session = held !== undefined && guard.sessions.has(held) ? held : guard.sessions.open();
  const address = new URL(request.url, 'http://review.invalid');
  address.searchParams.delete('token');
  const onward = escapeHtml(`${address.pathname}${address.search}`);
  return reply
    .setCookie(guard.cookie(), session, { httpOnly: true, sameSite: 'strict', path: '/' })
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${onward}">` +
        `<title>bulk-disputes review</title></head><body><p><a href="${onward}">Open the review page</a>.</p></body></html>\n`,
    );
}

function sameSecret(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

async function refuse(reply: FastifyReply, status: number, message: string): Promise<FastifyReply> {
  return reply.code(status).type('application/json').send({ message });
}
