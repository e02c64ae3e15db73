import { describe, expect, it } from 'vitest';
import { faultConfigSchema } from '../../../src/sandbox/faults/config.js';
import { actionFrom, createFaultInjector, decisionFrom, faultConfigOf, latencyFrom, rateLimiter } from '../../../src/sandbox/faults/seeded-faults.js';

const newClaim = { method: 'POST', pattern: '/v2/issuer/new_claim' };
const listClaims = { method: 'GET', pattern: '/v2/issuer/claims' };
const config = (input: object) => faultConfigSchema.parse(input);
const noDraws = { drop: 0.5, fail: 0.5, dropAfterCommit: 0.5, latency: 0.5 };

describe('createFaultInjector', () => {
  it('decides the same sequence for the same seed, and another for another seed', () => {
    const decide = (seed: number) => {
      const injector = createFaultInjector({ seed, failRate: 0.3, dropRate: 0.1, dropAfterCommitRate: 0.2, latencyMs: { min: 0, max: 100 } });
      return Array.from({ length: 200 }, () => injector.decide(newClaim, 0));
    };
    expect(decide(42)).toEqual(decide(42));
    expect(decide(43)).not.toEqual(decide(42));
  });

  it('keeps sequences aligned: a rate-limited decision draws as much as any other', () => {
    const base = { seed: 5, failRate: 0.5, latencyMs: { min: 0, max: 1000 } };
    const free = createFaultInjector(base);
    const limited = createFaultInjector({ ...base, rateLimitPerSecond: 1 });
    // Two requests per second: the limited injector refuses every second one, yet after it the
    // two injectors still meet the same draws (the same latency, the same fail verdicts).
    for (let index = 0; index < 50; index += 1) {
      const nowMs = Math.floor(index / 2) * 1000;
      const expected = free.decide(newClaim, nowMs);
      const actual = limited.decide(newClaim, nowMs);
      expect(actual.latencyMs).toBe(expected.latencyMs);
      expect(actual.action).toBe(index % 2 === 1 ? 'rate-limit' : expected.action);
    }
  });

  it('routes out of scope are never faulted and draw nothing', () => {
    const input = { seed: 9, failRate: 0.5, latencyMs: { min: 1, max: 50 }, routes: ['POST /v2/issuer/new_claim'] };
    const interleaved = createFaultInjector(input);
    const alone = createFaultInjector(input);
    for (let index = 0; index < 30; index += 1) {
      expect(interleaved.decide(listClaims, 0)).toEqual({ latencyMs: 0, action: 'none' });
      expect(interleaved.decide(newClaim, 0)).toEqual(alone.decide(newClaim, 0));
    }
  });

  it('a `*` scope covers every method of its pattern, and nothing else', () => {
    const injector = createFaultInjector({ failRate: 1, routes: ['* /v2/issuer/cases/{case_id}'] });
    for (const method of ['GET', 'PUT', 'DELETE']) expect(injector.decide({ method, pattern: '/v2/issuer/cases/{case_id}' }, 0).action).toBe('fail');
    expect(injector.decide({ method: 'POST', pattern: '/v2/issuer/cases/{case_id}/file' }, 0).action).toBe('none');
  });

  it('keeps the configuration it was made from, defaults filled in', () => {
    const injector = createFaultInjector({ failRate: 0.25 });
    expect(faultConfigOf(injector)).toEqual({ seed: 1, latencyMs: 0, failRate: 0.25, dropRate: 0, dropAfterCommitRate: 0, retryAfterSeconds: 1 });
    expect(faultConfigOf({ decide: () => ({ latencyMs: 0, action: 'none' }) })).toBeUndefined();
  });

  it('refuses a bad configuration', () => {
    expect(() => createFaultInjector({ failRate: 2 })).toThrow(/failRate/);
  });
});

describe('decision rules', () => {
  it('applies rate limit, then drop, then fail, then drop after commit', () => {
    const all = config({ failRate: 1, dropRate: 1, dropAfterCommitRate: 1 });
    expect(actionFrom(all, noDraws, true)).toBe('rate-limit');
    expect(actionFrom(all, noDraws, false)).toBe('drop');
    expect(actionFrom(config({ failRate: 1, dropAfterCommitRate: 1 }), noDraws, false)).toBe('fail');
    expect(actionFrom(config({ dropAfterCommitRate: 1 }), noDraws, false)).toBe('drop-after-commit');
    expect(actionFrom(config({}), noDraws, false)).toBe('none');
  });

  it('a rate strikes when its draw is below it: 0 never, 1 always', () => {
    const half = config({ failRate: 0.5 });
    expect(actionFrom(half, { ...noDraws, fail: 0.4999 }, false)).toBe('fail');
    expect(actionFrom(half, { ...noDraws, fail: 0.5 }, false)).toBe('none');
    expect(actionFrom(config({ failRate: 1 }), { ...noDraws, fail: 0.999999 }, false)).toBe('fail');
    expect(actionFrom(config({ failRate: 0 }), { ...noDraws, fail: 0 }, false)).toBe('none');
  });

  it('sends Retry-After only with 503 and 429', () => {
    const input = config({ failRate: 1, retryAfterSeconds: 4 });
    expect(decisionFrom(input, noDraws, false)).toEqual({ latencyMs: 0, action: 'fail', retryAfterSeconds: 4 });
    expect(decisionFrom(input, noDraws, true)).toEqual({ latencyMs: 0, action: 'rate-limit', retryAfterSeconds: 4 });
    expect(decisionFrom(config({ dropRate: 1 }), noDraws, false)).toEqual({ latencyMs: 0, action: 'drop' });
  });

  it('draws latency uniformly over the whole range, ends included', () => {
    expect(latencyFrom(30, 0.7)).toBe(30);
    expect(latencyFrom({ min: 20, max: 80 }, 0)).toBe(20);
    expect(latencyFrom({ min: 20, max: 80 }, 0.999999)).toBe(80);
    const injector = createFaultInjector({ latencyMs: { min: 20, max: 24 } });
    const seen = Array.from({ length: 500 }, () => injector.decide(newClaim, 0).latencyMs);
    expect(new Set(seen)).toEqual(new Set([20, 21, 22, 23, 24]));
  });

  it('admits `perSecond` requests per whole second of the clock, and follows a clock moved back', () => {
    const admit = rateLimiter(2);
    expect([admit(1000), admit(1500), admit(1999), admit(2000), admit(2001), admit(2002)]).toEqual([true, true, false, true, true, false]);
    expect(admit(500)).toBe(true);
    expect([true, true, true]).toEqual([0, 1, 2].map(() => rateLimiter(undefined)(0)));
  });

  it('keeps actual rates near the configured ones', () => {
    const injector = createFaultInjector({ seed: 3, failRate: 0.3 });
    const fails = Array.from({ length: 2000 }, () => injector.decide(newClaim, 0)).filter((decision) => decision.action === 'fail').length;
    expect(fails / 2000).toBeGreaterThan(0.25);
    expect(fails / 2000).toBeLessThan(0.35);
  });
});
