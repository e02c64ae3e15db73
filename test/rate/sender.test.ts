import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AuthenticationError } from '../../src/api/errors.js';
import type { CircuitBreaker } from '../../src/rate/breaker.js';
import { resolvePacing } from '../../src/rate/pacing.js';
import { Sender, type FollowedClient, type SenderOptions } from '../../src/rate/sender.js';
import { clientFor } from '../helpers/client.js';
import { json, startScriptedServer } from '../helpers/scripted-server.js';

/**
 * The one sender set-up of import, migrate-v1, withdraw and track: p-limit held to a limit that
 * follows the service, the breaker, the notices and the stop check, with a real client against a
 * real server on loopback.
 */

const logger = pino({ level: 'silent' });
const tooMany = json(429, { message: 'too many requests' });

/** A sender with nothing to follow (a dry run's), as the jobs make one. */
function dryRunSender(
  options: Pick<SenderOptions<undefined>, 'notices'> & { stopRequested?: () => boolean } = {},
): Sender<FollowedClient | undefined> {
  return new Sender<FollowedClient | undefined>({
    client: undefined,
    pacing: resolvePacing({ concurrency: 2, stopRequested: options.stopRequested }, { breakerThreshold: 2 }),
    logger,
    notices: options.notices,
  });
}

describe('Sender', () => {
  it("follows the service: after a 429 the claims in flight are what the pace needs, and finish sums up once, the wire's limit lifted", async () => {
    const server = await startScriptedServer([tooMany, json(200, { data: [], has_more: false })]);
    const client = clientFor(server.url, { retry: { maxAttempts: 1 } });
    const waits: string[] = [];
    const sender = new Sender({
      client,
      pacing: resolvePacing({ concurrency: 8 }, { breakerThreshold: 5 }),
      logger,
      notices: {
        showWaits: () => {
          waits.push('shown');
          return () => waits.push('gone');
        },
        showBreaker: () => undefined,
      },
    });
    expect(waits).toEqual(['shown']);
    await sender.limit(async () => client.events.list().catch(() => undefined));
    // Paced under 1 a second, with no latency known yet: still 8.
    expect(sender.limit.concurrency).toBe(8);
    await sender.limit(async () => client.events.list());
    // An answer in a few ms (0 on a fast machine) at that pace needs at most one request on the wire: 1 + 2.
    expect(sender.limit.concurrency).toBeLessThanOrEqual(3);
    expect(sender.limit.concurrency).toBeGreaterThanOrEqual(2);
    const summary = sender.finish();
    expect(summary.answered429).toBe(1);
    expect(summary.rate.throttles).toBe(1);
    expect(summary.concurrency).toMatchObject({ max: 8, lowest: 8, cuts: 0 });
    expect(sender.finish()).toBe(summary);
    expect(waits).toEqual(['shown', 'gone']);
  });

  it('a dry run follows nothing: no notices, and no summary', () => {
    const showWaits = (_client: FollowedClient) => {
      throw new Error('expected no notices without a client');
    };
    const sender = dryRunSender({ notices: { showWaits, showBreaker: () => undefined } });
    expect(sender.finish()).toBeUndefined();
  });

  it('a refused key stops it at once and is its fatal error; other failures count towards the breaker', () => {
    let stopAsked = false;
    const shown: CircuitBreaker[] = [];
    const sender = dryRunSender({
      stopRequested: () => stopAsked,
      notices: { showWaits: () => () => undefined, showBreaker: (breaker) => shown.push(breaker) },
    });
    expect(sender.stopping).toBe(false);
    sender.failed(new Error('service unavailable'));
    expect([sender.stopping, sender.fatal]).toEqual([false, undefined]);
    sender.showBreaker();
    expect(shown[0]?.recentFailures).toBe(1);

    const refused = new AuthenticationError(401, { message: 'invalid API key' }, '', {
      method: 'GET',
      path: '/v2/issuer/events',
      attempts: 1,
    });
    sender.failed(refused);
    expect(sender.fatal).toBe(refused);
    expect(sender.stopping).toBe(true);
    expect(sender.breaker.why).toBe(refused.message);
    sender.stopFor(new Error('a later error'));
    expect(sender.fatal).toBe(refused);

    const signalled = dryRunSender({ stopRequested: () => stopAsked });
    stopAsked = true;
    expect([signalled.stopping, signalled.stopRequested]).toEqual([true, true]);
  });
});
