import type { FastifyInstance } from 'fastify';

/**
 * What the page may load and who may embed it (docs/review.md, "Security"): its own script and
 * style files and its own API, nothing else; no inline script or style, no other page framing it,
 * no `<base>` moving its links, no form posted elsewhere.
 */
export const reviewContentPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Sent with every answer, a refusal too: each carries cardholder data, or the page that reads it. */
export const reviewHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': reviewContentPolicy,
  // A JSON answer is never run as a script or read as a style, whatever a page asks.
  'x-content-type-options': 'nosniff',
  // The address, with the token in it on the first load, is never told to another site.
  'referrer-policy': 'no-referrer',
  // Nothing of a page with cardholder data is kept in the browser's cache or on disk.
  'cache-control': 'no-store',
  // Another origin cannot embed an answer (an <img> or <script> of it), nor keep a handle on a
  // window it opened with the page.
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};

export function sendReviewHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(reviewHeaders);
  });
}
