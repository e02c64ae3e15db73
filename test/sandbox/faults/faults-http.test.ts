import { describe, expect, it } from 'vitest';
import { noFaults } from '../../../src/sandbox/faults/fault-injector.js';
import { createFaultInjector } from '../../../src/sandbox/faults/seeded-faults.js';
import { fraudClaim, startTestSandbox } from '../../helpers/sandbox.js';
import { outcomeOf } from './outcomes.js';

describe('faults over HTTP', () => {
  it('fail-rate 1 answers 503 with the configured Retry-After, before handling', async () => {
    const sandbox = await startTestSandbox({ faults: createFaultInjector({ failRate: 1, retryAfterSeconds: 7 }) });
    const answer = await sandbox.request('POST', '/v2/issuer/new_claim', fraudClaim('claim_failed'));
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(answer.body).toMatchObject({ message: expect.stringContaining('injected fault') as unknown });
    // Nothing was handled: with the faults off, the claim is not there.
    sandbox.sandbox.core.faults = noFaults;
    expect((await sandbox.request('GET', '/v2/issuer/claims/claim_failed')).status).toBe(404);
  });

  it('rate-limit 2: the third request in the same second is 429 with Retry-After; the next second admits again', async () => {
    let clockMs = Math.floor(Date.now() / 1000) * 1000 + 100;
    const sandbox = await startTestSandbox({
      now: () => clockMs,
      faults: createFaultInjector({ rateLimitPerSecond: 2 }),
    });
    const statuses: number[] = [];
    for (let index = 0; index < 3; index += 1)
      statuses.push((await sandbox.request('GET', '/v2/issuer/claims')).status);
    expect(statuses).toEqual([200, 200, 429]);
    const limited = await sandbox.request('GET', '/v2/issuer/claims');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    clockMs += 1000;
    expect((await sandbox.request('GET', '/v2/issuer/claims')).status).toBe(200);
  });

  it('capacity 2: with two requests in progress the third is answered 503 at once, with Retry-After; a place freed takes the next', async () => {
    const sandbox = await startTestSandbox({
      faults: createFaultInjector({ capacity: 2, latencyMs: 400, retryAfterSeconds: 3 }),
    });
    const held = [sandbox.request('GET', '/v2/issuer/claims'), sandbox.request('GET', '/v2/issuer/claims')];
    // Both are in progress (waiting their latency) before the third arrives.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const startedMs = performance.now();
    const refused = await sandbox.request('POST', '/v2/issuer/new_claim', fraudClaim('claim_over_capacity'));
    expect(performance.now() - startedMs).toBeLessThan(300);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('3');
    expect(refused.body).toMatchObject({ message: expect.stringContaining('every place is taken') as unknown });
    expect((await Promise.all(held)).map((answer) => answer.status)).toEqual([200, 200]);
    // Places given back once answered (a refusal took none): the claim was never handled, and is accepted now.
    expect((await sandbox.request('GET', '/v2/issuer/claims/claim_over_capacity')).status).toBe(404);
    expect((await sandbox.request('POST', '/v2/issuer/new_claim', fraudClaim('claim_over_capacity'))).status).toBe(201);
  });

  it('drop-rate 1 resets the connection and nothing is handled', async () => {
    const sandbox = await startTestSandbox({ faults: createFaultInjector({ dropRate: 1 }) });
    expect(await outcomeOf(sandbox, 'POST', '/v2/issuer/new_claim', fraudClaim('claim_dropped'))).toBe('reset');
    sandbox.sandbox.core.faults = noFaults;
    expect((await sandbox.request('GET', '/v2/issuer/claims/claim_dropped')).status).toBe(404);
  });

  it('honours the latency range, roughly', async () => {
    const sandbox = await startTestSandbox({ faults: createFaultInjector({ latencyMs: { min: 150, max: 250 } }) });
    for (let index = 0; index < 3; index += 1) {
      const startedMs = performance.now();
      expect((await sandbox.request('GET', '/v2/issuer/claims')).status).toBe(200);
      const elapsedMs = performance.now() - startedMs;
      // Timers may fire a millisecond early; the upper bound only says "not unbounded".
      expect(elapsedMs).toBeGreaterThanOrEqual(145);
      expect(elapsedMs).toBeLessThan(2000);
    }
  });

  it("does a request's work within its latency: held and durable before the answer, which comes the latency after it arrived", async () => {
    const sandbox = await startTestSandbox({ faults: createFaultInjector({ latencyMs: 300 }) });
    const startedMs = performance.now();
    const answering = sandbox.request('POST', '/v2/issuer/new_claim', fraudClaim('claim_within_latency'));
    await new Promise((resolve) => setTimeout(resolve, 150));
    // Half-way through the latency the claim is held already, committed: a client that gave up now would find it.
    const held = sandbox.sandbox.core.database
      .prepare('SELECT status FROM claims WHERE claim_id = ?')
      .get('claim_within_latency');
    expect(held).toBeDefined();
    expect((await answering).status).toBe(201);
    expect(performance.now() - startedMs).toBeGreaterThanOrEqual(295);
  });

  it('answers a refusal of the handler itself after the latency too', async () => {
    const sandbox = await startTestSandbox({ faults: createFaultInjector({ latencyMs: 250 }) });
    const startedMs = performance.now();
    const refused = await sandbox.request('POST', '/v2/issuer/new_claim', { claim_id: 'claim_without_cases' });
    expect(refused.status).toBe(400);
    expect(performance.now() - startedMs).toBeGreaterThanOrEqual(245);
  });

  it('faults only the routes in scope', async () => {
    const sandbox = await startTestSandbox({
      faults: createFaultInjector({
        failRate: 1,
        routes: ['POST /v2/issuer/new_claim', '* /v2/issuer/claims/{claim_id}'],
      }),
    });
    expect((await sandbox.request('POST', '/v2/issuer/new_claim', fraudClaim('claim_scoped'))).status).toBe(503);
    expect((await sandbox.request('GET', '/v2/issuer/claims/claim_scoped')).status).toBe(503);
    expect((await sandbox.request('GET', '/v2/issuer/claims')).status).toBe(200);
    expect((await sandbox.request('GET', '/v2/issuer/cases')).status).toBe(200);
  });
});
