import { Agent, request } from 'undici';
import { isDelivered } from './schedule.js';
import { codeOf } from '../../errors/coded-error.js';

/**
 * The HTTP edge of the webhooks: one POST, whose result is a value, never a throw. Everything
 * that can go wrong on the wire (refused, reset, a slow receiver, DNS) is the receiver's failure
 * to answer 2xx, and is retried like a 500.
 */

export interface AttemptResult {
  /** The receiver's status; null when no answer came. */
  status: number | null;
  /** Why no answer came, or which answer it was when not 2xx; null for 2xx. */
  error: string | null;
  /** Cut short because the webhooks were closing: not the receiver's fault. */
  abandoned: boolean;
}

export interface Sender {
  post(url: string, body: string, headers: Record<string, string>): Promise<AttemptResult>;
  /** Cuts attempts in flight (they end `abandoned`) and releases the connections. */
  close(): Promise<void>;
}

export function createSender(timeoutMs: number): Sender {
  // A pool of our own: the sandbox's receivers are not the API client's concern, and closing the
  // webhooks must be able to drop exactly these connections.
  const agent = new Agent({ connect: { timeout: timeoutMs } });
  // One controller per attempt rather than AbortSignal.any with a long-lived "closing" signal:
  // on Node 20 every any() stays attached to the long-lived signal (nodejs/node#55351).
  const inFlight = new Set<AbortController>();
  let closing = false;
  const timedOutReason = new Error(`no answer within ${timeoutMs} ms`);

  return {
    post: async (url, body, headers) => {
      const controller = new AbortController();
      inFlight.add(controller);
      // One budget for the whole attempt: connect, headers and body.
      const timer = setTimeout(() => {
        controller.abort(timedOutReason);
      }, timeoutMs);
      try {
        const response = await request(url, {
          method: 'POST',
          headers,
          body,
          dispatcher: agent,
          signal: controller.signal,
        });
        // Always consumed: an unread body holds its pooled connection (undici README).
        await response.body.dump().catch(() => undefined);
        return {
          status: response.statusCode,
          error: isDelivered(response.statusCode) ? null : `receiver answered ${response.statusCode}`,
          abandoned: false,
        };
      } catch (error) {
        if (closing) return { status: null, error: 'abandoned: webhooks closed during the attempt', abandoned: true };
        if (controller.signal.reason === timedOutReason)
          return { status: null, error: `no answer within ${timeoutMs} ms`, abandoned: false };
        return { status: null, error: describeNetworkError(error), abandoned: false };
      } finally {
        clearTimeout(timer);
        inFlight.delete(controller);
      }
    },
    close: async () => {
      closing = true;
      for (const controller of inFlight) controller.abort();
      await agent.destroy();
    },
  };
}

/** `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`, or the message alone when no code. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = codeOf(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return code === undefined ? `${error.message}${cause}` : `${code}: ${error.message}${cause}`;
}
