import { describe, expect, it } from 'vitest';
import { AdaptiveRate } from '../../../src/api/client/adaptive-rate.js';

/**
 * The service's rate as the client follows it (docs/rate-limits.md, "A rate limit followed as a
 * rate"): pure, so each case is a timeline of answers and the rate read off it.
 */

/** `perSecond` admitted answers a second, evenly, from `fromMs` for `forMs`. */
function admitAt(rate: AdaptiveRate, perSecond: number, fromMs: number, forMs: number): void {
  const gapMs = 1000 / perSecond;
  for (let atMs = fromMs; atMs < fromMs + forMs; atMs += gapMs) rate.admitted(atMs);
}

describe('AdaptiveRate', () => {
  it('paces nothing until the first 429', () => {
    const rate = new AdaptiveRate();
    admitAt(rate, 500, 0, 2000);
    expect(rate.following).toBe(false);
    expect(rate.perSecond(2000)).toBeUndefined();
    expect(rate.stats()).toEqual({ throttles: 0, estimate: undefined, lowest: undefined, pacedMs: 0 });
  });

  it('a 429 cuts to 0.7 of what the service admitted in the last second, and the curve comes back to it in K seconds', () => {
    const rate = new AdaptiveRate();
    admitAt(rate, 100, 0, 1000);
    expect(rate.throttled(990, 1000)).toBe(true);
    expect(rate.stats().estimate).toBeCloseTo(100, 0);
    expect(rate.perSecond(1000)).toBeCloseTo(70, 0);
    // K = cbrt(0.3 x 54) = 2.53 s: back at Wmax, flat there (concave before, convex after).
    const k = Math.cbrt(0.3 * 54);
    expect(rate.perSecond(1000 + 1000 * k)).toBeCloseTo(100, 0);
    const justBefore = rate.perSecond(1000 + 1000 * (k - 0.5)) ?? 0;
    const justAfter = rate.perSecond(1000 + 1000 * (k + 0.5)) ?? 0;
    expect(justBefore).toBeGreaterThan(99);
    expect(justAfter).toBeLessThan(101);
    // Then probing above: 1.5 x Wmax 3 s after K, 2.7 x (a limit raised from 50 to 135) 4.5 s after.
    expect(rate.perSecond(1000 + 1000 * (k + 3))).toBeCloseTo(150, 0);
    expect(rate.perSecond(1000 + 1000 * (k + 4.5)) ?? 0).toBeGreaterThan(260);
  });

  it('cuts once a round: a 429 to a request sent before the last cut is counted, not cut again', () => {
    const rate = new AdaptiveRate();
    admitAt(rate, 200, 0, 1000);
    expect(rate.throttled(950, 1000)).toBe(true);
    const afterFirst = rate.perSecond(1010);
    // The other requests in flight at the cut, answered 429 in the next 50 ms: nothing more.
    for (let index = 0; index < 20; index++) expect(rate.throttled(990, 1000 + index)).toBe(false);
    expect(rate.perSecond(1010)).toBe(afterFirst);
    // A request sent after the cut, refused: the pace is still too high, cut again, from the rate in force.
    expect(rate.throttled(1020, 1060)).toBe(true);
    expect(rate.perSecond(1060)).toBeLessThan((afterFirst ?? 0) * 0.75);
    expect(rate.stats().throttles).toBe(2);
  });

  it('when the service admitted nothing in the last second (another job spent the allowance), the requests sent stand for it', () => {
    // 30 requests sent at once, all refused: the first 429 cuts to 0.7 of 30 in the last second; the others were sent before it.
    const rate = new AdaptiveRate();
    for (let index = 0; index < 30; index++) rate.sent(0);
    for (let index = 0; index < 30; index++) rate.throttled(0, 50 + index);
    expect(rate.stats().throttles).toBe(1);
    expect(rate.stats().estimate).toBeCloseTo((30 * 1000) / 950, 5);
    expect(rate.perSecond(50)).toBeCloseTo((0.7 * 30 * 1000) / 950, 5);
  });

  it('never below the floor (0.5 a second), however many rounds are refused', () => {
    const rate = new AdaptiveRate();
    rate.sent(0);
    rate.throttled(0, 0);
    // One request in the last second: about 1 a second, cut to 0.7 of it.
    expect(rate.perSecond(0)).toBeLessThan(1);
    for (let round = 1; round <= 20; round++) rate.throttled(round * 2000 - 1, round * 2000);
    expect(rate.perSecond(40_000)).toBe(0.5);
    expect(rate.stats().lowest).toBe(0.5);
  });

  it('forgets admitted answers older than a second', () => {
    const rate = new AdaptiveRate();
    admitAt(rate, 400, 0, 1000);
    admitAt(rate, 50, 3000, 1000);
    rate.throttled(3990, 4000);
    expect(rate.stats().estimate).toBeCloseTo(50, 0);
  });

  it('counts the time it set the pace in 100 ms slots', () => {
    const rate = new AdaptiveRate();
    for (const atMs of [0, 10, 99, 100, 250, 251, 1000]) rate.waited(atMs);
    expect(rate.stats().pacedMs).toBe(400);
  });

  it.each([
    { options: { beta: 1 }, message: 'adaptive rate beta: expected a number above 0 and below 1, got 1' },
    { options: { probe: 0 }, message: 'adaptive rate probe: expected a number above 0 and below Infinity, got 0' },
    {
      options: { minPerSecond: -1 },
      message: 'adaptive rate minPerSecond: expected a number above 0 and below Infinity, got -1',
    },
  ])('refuses $options', ({ options, message }) => {
    expect(() => new AdaptiveRate(options)).toThrow(message);
  });
});
