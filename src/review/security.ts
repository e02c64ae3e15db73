import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const tokenCookie = 'review_token';

/**
 * The review page shows cardholder data, so every request proves itself:
 * - `Host` must be the address the server listens on: a page of another site whose name is made
 *   to resolve to 127.0.0.1 (DNS rebinding) is refused;
 * - the random token of the printed address, or its cookie (HttpOnly, SameSite=Strict) set on the
 *   first load: 401 without, 403 with a wrong one;
 * - writes (anything but GET and HEAD) only from the page itself: `Origin` must be this server's.
 * No CORS headers are ever sent, so another origin cannot read an answer either.
 */
export function secure(app: FastifyInstance, options: { token: string; origins: () => readonly string[] }): void {
  app.addHook('onRequest', async (request, reply) => {
    const origins = options.origins();
    const hosts = origins.map((origin) => new URL(origin).host);
    if (!hosts.includes(request.headers.host ?? ''))
      return refuse(
        reply,
        421,
        `Host: expected ${hosts.join(' or ')}, got ${JSON.stringify(request.headers.host ?? '')}`,
      );
    const given = tokenOf(request);
    if (given === undefined) return refuse(reply, 401, 'expected the token of the address review printed');
    if (!sameSecret(given, options.token))
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
    return undefined;
  });
}

function tokenOf(request: FastifyRequest): string | undefined {
  const query = (request.query as { token?: unknown } | undefined)?.token;
  if (typeof query === 'string') return query;
  // @fastify/cookie parses the Cookie header into `request.cookies` before this hook runs.
  return request.cookies[tokenCookie];
}

function sameSecret(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

async function refuse(reply: FastifyReply, status: number, message: string): Promise<FastifyReply> {
  return reply.code(status).type('application/json').send({ message });
}
