import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ClaimsHttpError,
  ClaimsNetworkError,
  OutcomeUnknownError,
} from '../../../src/api/errors.js';
import { clientFor, recordSleeps } from '../../helpers/client.js';
import { json, resetAfterReceiving, startScriptedServer } from '../../helpers/scripted-server.js';

const claim = { claim_id: 'claim_1', created: '2026-11-01T10:00:00Z', status: 'open', cases: [{ case_id: 'case_1' }] };
const unavailable = json(503, { message: 'service unavailable' });
const createBody = { case_ids: ['case_1'], claim_id: 'claim_1' };

describe('client retries through a real server', () => {
  it('503, 503, then 202 succeeds on the third attempt after the policy delays', async () => {
    const server = await startScriptedServer([unavailable, unavailable, json(202, claim)]);
    const sleeps = recordSleeps();
    const client = clientFor(server.url, {
      sleep: sleeps.sleep,
      random: () => 0.5,
      retry: { baseDelayMs: 400, maxDelayMs: 10_000 },
    });

    const result = await client.claims.create(createBody);

    expect(result).toMatchObject({ status: 202, attempts: 3, data: { claim_id: 'claim_1' } });
    // Full jitter with random 0.5: half of 400 ms, then half of 800 ms.
    expect(sleeps.delaysMs).toEqual([200, 400]);
    expect(server.requests).toHaveLength(3);
  });

  it('waits as long as Retry-After: 2 says', async () => {
    const server = await startScriptedServer([
      json(503, { message: 'busy' }, { 'retry-after': '2' }),
      json(200, claim),
    ]);
    const sleeps = recordSleeps();
    const client = clientFor(server.url, { sleep: sleeps.sleep });

    const result = await client.claims.retrieve('claim_1');

    expect(result.attempts).toBe(2);
    expect(sleeps.delaysMs).toEqual([2000]);
  });

  it('reads a Retry-After HTTP date against the injected clock, within its cap', async () => {
    const nowMs = Date.parse('2026-11-21T12:00:00Z');
    const server = await startScriptedServer([
      json(429, { message: 'slow down' }, { 'retry-after': 'Sat, 21 Nov 2026 12:00:05 GMT' }),
      json(429, { message: 'slow down' }, { 'retry-after': '3600' }),
      json(200, claim),
    ]);
    const sleeps = recordSleeps();
    const client = clientFor(server.url, { sleep: sleeps.sleep, now: () => nowMs, retry: { retryAfterCapMs: 30_000 } });

    await client.claims.retrieve('claim_1');

    // Each retry waits its Retry-After, the second at the cap; then its turn at the service's rate (the 429s
    // set it), and on this frozen clock the pause still ahead of it: never longer than the cap.
    expect(sleeps.delaysMs.slice(0, 2)).toEqual([5000, 30_000]);
    expect(Math.max(...sleeps.delaysMs)).toBe(30_000);
  });

  it('retries 429 on a create: the service did not process it', async () => {
    const server = await startScriptedServer([json(429, { message: 'too many requests' }), json(201, claim)]);
    const result = await clientFor(server.url).claims.create(createBody);
    expect(result).toMatchObject({ status: 201, attempts: 2 });
  });

  it('does not retry 401 and reports an authentication error', async () => {
    const server = await startScriptedServer([json(401, { message: 'invalid API key' }), json(200, claim)]);
    const error = await clientFor(server.url)
      .claims.retrieve('claim_1')
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({
      code: 'CLAIMS_AUTHENTICATION',
      status: 401,
      attempts: 1,
      method: 'GET',
      path: '/v2/issuer/claims/claim_1',
      serviceMessage: 'invalid API key',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('reports a create whose connection reset after sending as outcome-unknown, sent once', async () => {
    const server = await startScriptedServer([resetAfterReceiving, json(201, claim)]);
    const error = await clientFor(server.url)
      .claims.createWithCases(newClaim())
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({
      code: 'CLAIMS_OUTCOME_UNKNOWN',
      attempts: 1,
      stoppedBy: 'outcome-unknown',
      path: '/v2/issuer/new_claim',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('reports a create answered 500 as outcome-unknown, sent once', async () => {
    const server = await startScriptedServer([json(500, { message: 'internal error' }), json(201, claim)]);
    const error = await clientFor(server.url)
      .claims.create(createBody)
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ status: 500, attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a read whose connection reset, and a safe write answered 502', async () => {
    const server = await startScriptedServer([
      resetAfterReceiving,
      json(200, claim),
      json(502, { message: 'bad gateway' }),
      json(200, claim),
    ]);
    const client = clientFor(server.url);

    expect((await client.claims.retrieve('claim_1')).attempts).toBe(2);
    expect((await client.claims.setCases('claim_1', { case_ids: ['case_1'] })).attempts).toBe(2);
  });

  it('stops after maxAttempts and says so', async () => {
    const server = await startScriptedServer(() => unavailable);
    const error = await clientFor(server.url, { retry: { maxAttempts: 3 } })
      .claims.list()
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ClaimsHttpError);
    expect(error).toMatchObject({
      code: 'CLAIMS_UNAVAILABLE',
      status: 503,
      attempts: 3,
      stoppedBy: 'attempts-exhausted',
    });
    expect((error as Error).message).toBe(
      'GET /v2/issuer/claims: 503: service unavailable (3 attempts, attempts-exhausted)',
    );
    expect(server.requests).toHaveLength(3);
  });

  it('stops when the next delay would pass the overall deadline', async () => {
    const server = await startScriptedServer(() => json(503, { message: 'busy' }, { 'retry-after': '40' }));
    const sleeps = recordSleeps();
    let clockMs = 0;
    const client = clientFor(server.url, {
      now: () => clockMs,
      sleep: async (delayMs) => {
        clockMs += delayMs;
        return sleeps.sleep(delayMs);
      },
      retry: { deadlineMs: 100_000, maxAttempts: 10 },
    });

    const error = await client.events.list().catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 503, attempts: 3, stoppedBy: 'deadline-exceeded' });
    expect(sleeps.delaysMs).toEqual([40_000, 40_000]);
  });

  it('retries a create whose connection was refused: nothing was sent', async () => {
    const server = await startScriptedServer([]);
    const closedUrl = server.url.replace(/:\d+$/, ':1');
    const error = await clientFor(closedUrl, { retry: { maxAttempts: 2 } })
      .claims.create(createBody)
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ClaimsNetworkError);
    expect(error).toMatchObject({
      code: 'CLAIMS_NETWORK',
      networkCode: 'ECONNREFUSED',
      attempts: 2,
      stoppedBy: 'attempts-exhausted',
    });
  });
});

function newClaim() {
  return {
    claim_id: 'claim_1',
    card: { last4: '4242', network: 'visa' as const },
    dispute: { reason: 'fraud' as const },
    cases: [
      {
        case_id: 'case_1',
        dispute: { amount: 5000, currency: 'USD' },
        transaction: { amount: 5000, currency: 'USD', date: '2026-10-01T00:00:00Z', arn: '74537604221431003881865' },
      },
    ],
  };
}
