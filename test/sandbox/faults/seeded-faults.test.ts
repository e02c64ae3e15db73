import { describe, expect, it } from 'vitest';
import { faultConfigSchema } from '../../../src/sandbox/faults/config.js';
import {
  actionFrom,
  createFaultInjector,
  decisionFrom,
  faultConfigOf,
  latencyFrom,
  rateLimiter,
} from '../../../src/sandbox/faults/seeded-faults.js';

const newClaim = { method: 'POST', pattern: '/v2/issuer/new_claim' };
const listClaims = { method: 'GET', pattern: '/v2/issuer/claims' };
const config = (input: object) => faultConfigSchema.parse(input);
const noDraws = { drop: 0.5, fail: 0.5, dropAfterCommit: 0.5, latency: 0.5 };

describe('createFaultInjector', () => {
  it('decides the same sequence for the same seed, and another for another seed', () => {
    const decide = (seed: number) => {
      const injector = createFaultInjector({
        seed,
        failRate: 0.3,
        dropRate: 0.1,
        dropAfterCommitRate: 0.2,
        latencyMs: { min: 0, max: 100 },
      });
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
    for (const method of ['GET', 'PUT', 'DELETE'])
      expect(injector.decide({ method, pattern: '/v2/issuer/cases/{case_id}' }, 0).action).toBe('fail');
    expect(injector.decide({ method: 'POST', pattern: '/v2/issuer/cases/{case_id}/file' }, 0).action).toBe('none');
  });

  it('keeps the configuration it was made from, defaults filled in', () => {
    const injector = createFaultInjector({ failRate: 0.25 });
    expect(faultConfigOf(injector)).toEqual({
      seed: 1,
      latencyMs: 0,
      failRate: 0.25,
      dropRate: 0,
      dropAfterCommitRate: 0,
      retryAfterSeconds: 1,
    });
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
    expect(decisionFrom(input, noDraws, 0)).toEqual({ latencyMs: 0, action: 'fail', retryAfterSeconds: 4 });
    expect(decisionFrom(input, noDraws, 1)).toMatchObject({ action: 'rate-limit', retryAfterSeconds: 1 });
    expect(decisionFrom(config({ dropRate: 1 }), noDraws, 0)).toEqual({ latencyMs: 0, action: 'drop' });
    expect(decisionFrom(config({}), noDraws, 0)).toEqual({ latencyMs: 0, action: 'none' });
  });

  // A 429 of the rate limit says when the caller's next token comes, in whole seconds rounded up,
  // whatever --retry-after-seconds says (that one is for injected 503s).
  it.each([
    { waitMs: 1, seconds: 1 },
    { waitMs: 20, seconds: 1 },
    { waitMs: 999, seconds: 1 },
    { waitMs: 1000, seconds: 1 },
    { waitMs: 1001, seconds: 2 },
    { waitMs: 2500, seconds: 3 },
  ])(
    'a rate-limited request $waitMs ms before its next token: 429 with Retry-After $seconds',
    ({ waitMs, seconds }) => {
      expect(decisionFrom(config({ retryAfterSeconds: 7, latencyMs: 5 }), noDraws, waitMs)).toEqual({
        latencyMs: 5,
        action: 'rate-limit',
        retryAfterSeconds: seconds,
      });
    },
  );

  it('draws latency uniformly over the whole range, ends included', () => {
    expect(latencyFrom(30, 0.7)).toBe(30);
    expect(latencyFrom({ min: 20, max: 80 }, 0)).toBe(20);
    expect(latencyFrom({ min: 20, max: 80 }, 0.999999)).toBe(80);
    const injector = createFaultInjector({ latencyMs: { min: 20, max: 24 } });
    const seen = Array.from({ length: 500 }, () => injector.decide(newClaim, 0).latencyMs);
    expect(new Set(seen)).toEqual(new Set([20, 21, 22, 23, 24]));
  });

  // A token bucket per API key, `perSecond` a second, holding at most one second's worth; the
  // answer is 0 (admitted) or the ms until the caller's next token (refused, nothing taken).
  it.each([
    {
      name: "a full bucket admits a second's worth at once, then says when the next token comes",
      perSecond: 2,
      calls: [
        [1000, 'a', 0],
        [1000, 'a', 0],
        [1000, 'a', 500],
        [1000, 'a', 500],
      ],
    },
    {
      name: 'a refused request takes nothing: the wait shrinks as the clock moves',
      perSecond: 2,
      calls: [
        [0, 'a', 0],
        [0, 'a', 0],
        [250, 'a', 250],
        [400, 'a', 100],
        [500, 'a', 0],
        [500, 'a', 500],
      ],
    },
    {
      name: "a quiet spell refills the bucket up to one second's worth, no more",
      perSecond: 2,
      calls: [
        [0, 'a', 0],
        [0, 'a', 0],
        [60_000, 'a', 0],
        [60_000, 'a', 0],
        [60_000, 'a', 500],
      ],
    },
    {
      name: 'each API key has its own bucket',
      perSecond: 1,
      calls: [
        [0, 'a', 0],
        [0, 'a', 1000],
        [0, 'b', 0],
        [0, 'b', 1000],
        [0, 'test_x', 0],
        [0, 'live_x', 0],
        [500, 'a', 500],
      ],
    },
    {
      name: 'a steady pace at the rate is always admitted',
      perSecond: 50,
      calls: Array.from({ length: 200 }, (_, index) => [index * 20, 'a', 0] as const),
    },
    {
      name: 'a pace over the rate is refused once the burst is spent',
      perSecond: 10,
      calls: [...Array.from({ length: 10 }, () => [0, 'a', 0] as const), [50, 'a', 50], [100, 'a', 0], [101, 'a', 99]],
    },
    {
      name: 'a clock moved back adds nothing, and counts on from there',
      perSecond: 2,
      calls: [
        [5000, 'a', 0],
        [5000, 'a', 0],
        [1000, 'a', 500],
        [1500, 'a', 0],
      ],
    },
    {
      name: 'a fractional wait is rounded up to the next whole millisecond',
      perSecond: 3,
      calls: [
        [0, 'a', 0],
        [0, 'a', 0],
        [0, 'a', 0],
        [0, 'a', 334],
      ],
    },
  ] as { name: string; perSecond: number; calls: (readonly [number, string, number])[] }[])(
    'rateLimiter: $name',
    ({ perSecond, calls }) => {
      const admit = rateLimiter(perSecond);
      expect(calls.map(([nowMs, apiKey]) => admit(nowMs, apiKey))).toEqual(calls.map(([, , waitMs]) => waitMs));
    },
  );

  it('no rate limit admits everything', () => {
    const admit = rateLimiter(undefined);
    expect(Array.from({ length: 1000 }, () => admit(0, 'a'))).toEqual(Array.from({ length: 1000 }, () => 0));
  });

  it('the injector counts each API key apart, and a request without a key against its own bucket', () => {
    const injector = createFaultInjector({ rateLimitPerSecond: 1 });
    const actions = (apiKey: string | undefined) => [
      injector.decide(newClaim, 0, apiKey).action,
      injector.decide(newClaim, 0, apiKey).action,
    ];
    expect(actions('test_key_one')).toEqual(['none', 'rate-limit']);
    expect(actions('test_key_two')).toEqual(['none', 'rate-limit']);
    expect(actions('live_key_one')).toEqual(['none', 'rate-limit']);
    expect(actions(undefined)).toEqual(['none', 'rate-limit']);
    expect(injector.decide(newClaim, 1000, 'test_key_one').action).toBe('none');
  });

  it('keeps actual rates near the configured ones', () => {
    const injector = createFaultInjector({ seed: 3, failRate: 0.3 });
    const fails = Array.from({ length: 2000 }, () => injector.decide(newClaim, 0)).filter(
      (decision) => decision.action === 'fail',
    ).length;
    expect(fails / 2000).toBeGreaterThan(0.25);
    expect(fails / 2000).toBeLessThan(0.35);
  });
});
