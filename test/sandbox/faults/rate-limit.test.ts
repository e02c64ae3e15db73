import { describe, expect, it } from 'vitest';
import { simpleErrorSchema } from '../../../src/api/schemas/errors.js';
import { createFaultInjector } from '../../../src/sandbox/faults/seeded-faults.js';
import { liveKey, sandboxKey, startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { startSandboxProcess } from '../../helpers/sandbox-process.js';

/**
 * The sandbox's `--rate-limit N` over HTTP, on a real sandbox on a loopback port 0: a token bucket
 * per API key, N a second, bursts up to N; over it, 429 with `Retry-After` (the seconds until the
 * caller's next token, rounded up) and the interface's simple error body. Changed at run time like
 * every fault: `POST /_sandbox/faults` (`rateLimitPerSecond`).
 */

const otherTestKey = 'test_sandbox_key_0002';

async function statuses(sandbox: TestSandbox, count: number, key = sandboxKey): Promise<number[]> {
  const seen: number[] = [];
  for (let index = 0; index < count; index += 1)
    seen.push((await sandbox.request('GET', '/v2/issuer/claims', undefined, key)).status);
  return seen;
}

describe('sandbox rate limit, per API key', () => {
  it('over the rate: 429 with Retry-After in whole seconds and a JSON error body; a token later, admitted again', async () => {
    let clockMs = Date.parse('2026-11-20T12:00:00.000Z');
    const sandbox = await startTestSandbox({
      now: () => clockMs,
      faults: createFaultInjector({ rateLimitPerSecond: 4 }),
    });

    expect(await statuses(sandbox, 4)).toEqual([200, 200, 200, 200]);
    const limited = await sandbox.request('GET', '/v2/issuer/claims');
    expect(limited.status).toBe(429);
    // The next token is 250 ms away: rounded up to 1 s.
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('content-type')).toMatch(/^application\/json/);
    expect(simpleErrorSchema.parse(limited.body).message).toBe(
      'too many requests: over the rate limit for this API key; retry after 1 s',
    );
    // Writes are refused before they are handled: nothing is created.
    expect((await sandbox.request('POST', '/v2/issuer/new_claim', { claim_id: 'not-handled' })).status).toBe(429);

    clockMs += 250;
    expect(await statuses(sandbox, 2)).toEqual([200, 429]);
    // A quiet spell buys one second's worth, no more.
    clockMs += 60_000;
    expect(await statuses(sandbox, 5)).toEqual([200, 200, 200, 200, 429]);
  });

  it('two API keys have buckets of their own, and test and live keys stay apart', async () => {
    const clockMs = Date.parse('2026-11-20T12:00:00.000Z');
    const sandbox = await startTestSandbox({
      apiKeys: [sandboxKey, otherTestKey, liveKey],
      now: () => clockMs,
      faults: createFaultInjector({ rateLimitPerSecond: 2 }),
    });

    expect(await statuses(sandbox, 3, sandboxKey)).toEqual([200, 200, 429]);
    // The first key spent its allowance; the second test key and the live key have theirs whole.
    expect(await statuses(sandbox, 3, otherTestKey)).toEqual([200, 200, 429]);
    expect(await statuses(sandbox, 3, liveKey)).toEqual([200, 200, 429]);
    expect(await statuses(sandbox, 1, sandboxKey)).toEqual([429]);
    // A refused key is refused for itself (401), not counted against anyone's allowance.
    expect((await sandbox.request('GET', '/v2/issuer/claims', undefined, 'test_unknown_key')).status).toBe(401);
  });

  it('is set, read and turned off at run time through the control endpoint, which it never limits', async () => {
    let clockMs = Date.parse('2026-11-20T12:00:00.000Z');
    const sandbox = await startTestSandbox({ control: true, now: () => clockMs });
    expect(await statuses(sandbox, 10)).toEqual(Array.from({ length: 10 }, () => 200));

    const set = await sandbox.request('POST', '/_sandbox/faults', { rateLimitPerSecond: 3 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ rateLimitPerSecond: 3 });
    expect((await sandbox.request('GET', '/_sandbox/faults')).body).toMatchObject({ rateLimitPerSecond: 3 });
    expect(await statuses(sandbox, 4)).toEqual([200, 200, 200, 429]);
    // Control routes are how faults are turned off: never limited.
    for (let index = 0; index < 5; index += 1)
      expect((await sandbox.request('GET', '/_sandbox/faults')).status).toBe(200);

    // A bad value is refused with the validation shape, naming the field; the limit in force stays.
    const refused = await sandbox.request('POST', '/_sandbox/faults', { rateLimitPerSecond: 0 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errors: [{ details: { field: 'rateLimitPerSecond' } }] });
    expect(await statuses(sandbox, 1)).toEqual([429]);

    // A new configuration starts from full buckets.
    expect((await sandbox.request('POST', '/_sandbox/faults', { rateLimitPerSecond: 1 })).status).toBe(200);
    expect(await statuses(sandbox, 2)).toEqual([200, 429]);
    clockMs += 1000;
    expect(await statuses(sandbox, 2)).toEqual([200, 429]);

    expect((await sandbox.request('POST', '/_sandbox/faults', {})).status).toBe(200);
    expect(await statuses(sandbox, 20)).toEqual(Array.from({ length: 20 }, () => 200));
  });

  it('bulk-disputes sandbox --rate-limit: a real process limits each key, and POST /_sandbox/faults changes it while it runs', async () => {
    const { url } = await startSandboxProcess([
      '--db',
      ':memory:',
      '--api-key',
      sandboxKey,
      '--api-key',
      otherTestKey,
      '--control',
      '--rate-limit',
      '3',
    ]);
    const get = async (path: string, key = sandboxKey, body?: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
    };
    // Six requests in a few milliseconds: the bucket of 3 refills 3 a second, far less than one token meanwhile.
    const burst = await Promise.all(Array.from({ length: 6 }, async () => get('/v2/issuer/claims')));
    expect(burst.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    expect(burst.filter((answer) => answer.status === 429).map((answer) => answer.retryAfter)).toEqual(['1', '1', '1']);
    expect((await get('/v2/issuer/claims', otherTestKey)).status).toBe(200);

    expect((await get('/_sandbox/faults', sandboxKey, { rateLimitPerSecond: 1000 })).status).toBe(200);
    const after = await Promise.all(Array.from({ length: 50 }, async () => get('/v2/issuer/claims')));
    expect(after.filter((answer) => answer.status !== 200)).toEqual([]);
  });
});
