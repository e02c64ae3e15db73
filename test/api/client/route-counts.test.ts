import { describe, expect, it } from 'vitest';
import { Pacing } from '../../../src/api/client/pacing.js';
import { routeOf } from '../../../src/api/client/route-counts.js';

describe('routeOf: ids replaced by {id}, the paths’ fixed words kept', () => {
  it.each([
    ['POST', '/v2/issuer/claims/claim_7f3a/file', 'POST /v2/issuer/claims/{id}/file'],
    ['POST', '/v2/issuer/new_claim', 'POST /v2/issuer/new_claim'],
    ['GET', '/v2/issuer/cases/case%2F1?x=1', 'GET /v2/issuer/cases/{id}'],
    ['POST', '/v2/issuer/cases/c1/run_workflow', 'POST /v2/issuer/cases/{id}/run_workflow'],
    ['GET', '/v1/issuer/cases', 'GET /v1/issuer/cases'],
    ['PUT', '/v2/issuer/claims/c-2/withdraw', 'PUT /v2/issuer/claims/{id}/withdraw'],
  ])('%s %s', (method, path, route) => {
    expect(routeOf(method, path)).toBe(route);
  });
});

describe('Pacing: requests by route and answer', () => {
  it('counts every attempt under its route and kind of answer', async () => {
    const pacing = new Pacing({
      maxRps: undefined,
      retryAfterCapMs: 60_000,
      now: Date.now,
      sleep: async () => undefined,
    });
    const send = async (path: string, status: number | undefined, caseScoped = false) => {
      const sentAtMs = await pacing.beforeAttempt(undefined);
      pacing.afterAttempt('POST', path, status, undefined, caseScoped, sentAtMs);
      pacing.attemptEnded();
    };
    await send('/v2/issuer/new_claim', 201);
    await send('/v2/issuer/new_claim', 429);
    await send('/v2/issuer/claims/a/file', 503, true);
    await send('/v2/issuer/claims/b/file', 200, true);
    await send('/v2/issuer/claims/c/file', 200, true);
    await send('/v2/issuer/claims/d/file', undefined, true);
    expect(pacing.stats().byRoute).toEqual([
      { route: 'POST /v2/issuer/new_claim', answer: 'accepted', requests: 1 },
      { route: 'POST /v2/issuer/new_claim', answer: 'rate-limited', requests: 1 },
      { route: 'POST /v2/issuer/claims/{id}/file', answer: 'case-unavailable', requests: 1 },
      { route: 'POST /v2/issuer/claims/{id}/file', answer: 'accepted', requests: 2 },
      { route: 'POST /v2/issuer/claims/{id}/file', answer: 'failed', requests: 1 },
    ]);
    expect(pacing.stats().requests).toBe(6);
  });
});
