import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from '../../src/rate/breaker.js';

/** The breaker on a clock the test moves: `F` a claim failed on the service's side, `s` one that did not. */
function run(
  outcomes: string,
  options: { threshold: number; stepMs?: number },
): { breaker: CircuitBreaker; openedAt: number } {
  let nowMs = 0;
  const breaker = new CircuitBreaker({ threshold: options.threshold, now: () => nowMs });
  let openedAt = -1;
  Array.from(outcomes).forEach((outcome, index) => {
    nowMs += options.stepMs ?? 100;
    if (outcome === 'F') breaker.failed(`claim ${index}`);
    else breaker.succeeded();
    if (breaker.open && openedAt < 0) openedAt = index;
  });
  return { breaker, openedAt };
}

describe('CircuitBreaker: the share of failed claims over the last minute', () => {
  it('a service that fails every claim stops the run at the threshold', () => {
    const { breaker, openedAt } = run('FFFFFFFF', { threshold: 5 });
    expect(openedAt).toBe(4);
    expect(breaker.why).toBe('5 of the 5 claims that ended in the last 60 s failed; the last: claim 4');
  });

  it('sporadic failures among successes never stop it, however many in all', () => {
    const { breaker } = run('ssssF'.repeat(2000), { threshold: 5 });
    expect(breaker.open).toBe(false);
    // A minute of claims at 10 a second, one in five failed (counted by the second: 59 to 60 s of them).
    expect(breaker.recentFailures).toBeGreaterThanOrEqual(118);
    expect(breaker.recentFailures).toBeLessThanOrEqual(120);
  });

  it('a service failing most claims stops it even with a success now and then (5 in a row never came)', () => {
    const { openedAt } = run('FFsFFsFFsFFs', { threshold: 5 });
    expect(openedAt).toBe(6);
  });

  it('failures older than a minute are forgotten', () => {
    // Four failures a minute apart or more never make five in one minute.
    const { breaker } = run('FFFF', { threshold: 5, stepMs: 20_000 });
    expect(breaker.recentFailures).toBe(3);
    expect(breaker.open).toBe(false);
  });

  it('trip opens it at once, whatever the count', () => {
    const breaker = new CircuitBreaker(5);
    breaker.trip('the key was refused');
    expect(breaker).toMatchObject({ open: true, why: 'the key was refused' });
  });
});
