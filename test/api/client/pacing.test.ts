import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Pacing, type AttemptReport } from '../../../src/api/client/pacing.js';

/**
 * The job's pace (docs/rate-limits.md) on a virtual clock: `sleep` parks the caller until the test moves
 * the clock past its time, so the tables say exactly when each attempt was let go.
 */

interface VirtualTime {
  now: () => number;
  sleep: (delayMs: number) => Promise<void>;
  /** Runs the parked sleepers in time order (callers' follow-ups in between) until none is left or `untilMs`. */
  run: (untilMs?: number) => Promise<void>;
}

function virtualTime(): VirtualTime {
  let nowMs = 0;
  const sleepers: { atMs: number; wake: () => void }[] = [];
  return {
    now: () => nowMs,
    sleep: async (delayMs) =>
      new Promise<void>((wake) => {
        sleepers.push({ atMs: nowMs + delayMs, wake });
      }),
    run: async (untilMs = Number.POSITIVE_INFINITY) => {
      for (;;) {
        // Let every woken caller run on to its next sleep (or its end) before the clock moves.
        await turn();
        sleepers.sort((left, right) => left.atMs - right.atMs);
        const next = sleepers[0];
        if (next === undefined || next.atMs > untilMs) break;
        sleepers.shift();
        nowMs = Math.max(nowMs, next.atMs);
        next.wake();
      }
      if (Number.isFinite(untilMs)) nowMs = Math.max(nowMs, untilMs);
    },
  };
}

function pacingOn(time: VirtualTime, maxRps: number | undefined, retryAfterCapMs = 60_000): Pacing {
  return new Pacing({ maxRps, retryAfterCapMs, now: time.now, sleep: time.sleep });
}

/** Starts an attempt's wait now; resolves to the virtual time it was let go. */
async function attempt(pacing: Pacing, time: VirtualTime, retryDelayMs?: number): Promise<number> {
  await pacing.beforeAttempt(retryDelayMs);
  return time.now();
}

describe('Pacing: --max-rps', () => {
  it.each([
    { maxRps: 4, attempts: 5, letGoAt: [0, 250, 500, 750, 1000] },
    { maxRps: 45, attempts: 4, letGoAt: [0, 23, 45, 67] },
    { maxRps: 0.5, attempts: 3, letGoAt: [0, 2000, 4000] },
  ])('$attempts attempts at once under --max-rps $maxRps go one token apart', async ({ maxRps, attempts, letGoAt }) => {
    const time = virtualTime();
    const pacing = pacingOn(time, maxRps);
    const waits = Array.from({ length: attempts }, async () => attempt(pacing, time));
    await time.run();
    expect(await Promise.all(waits)).toEqual(letGoAt);
    expect(pacing.stats()).toMatchObject({ maxRps, waitedForToken: attempts - 1 });
  });

  it('a retry waits for its own delay, then for a token like any attempt', async () => {
    const time = virtualTime();
    const pacing = pacingOn(time, 2);
    const first = attempt(pacing, time);
    const retry = attempt(pacing, time, 100);
    await time.run();
    // After its 100 ms the retry books the next token, one token's time (500 ms) after the first's.
    expect([await first, await retry]).toEqual([0, 500]);
  });

  it('no --max-rps: nothing waits, a retry still sleeps its delay (0 included)', async () => {
    const time = virtualTime();
    const pacing = pacingOn(time, undefined);
    const waits = [attempt(pacing, time), attempt(pacing, time), attempt(pacing, time, 0), attempt(pacing, time, 300)];
    await time.run();
    expect(await Promise.all(waits)).toEqual([0, 0, 0, 300]);
    expect(pacing.stats()).toEqual({
      maxRps: undefined,
      requests: 0,
      answered429: 0,
      answered503: 0,
      caseUnavailable: 0,
      failed: 0,
      retriesHeldBack: 0,
      pauses: 0,
      downPauses: 0,
      pausedMs: 0,
      waitedForToken: 0,
      waitedForRate: 0,
      rate: { throttles: 0, estimate: undefined, lowest: undefined, pacedMs: 0 },
      sendingMs: 0,
      byRoute: [],
    });
  });
});

/** `count` attempts sent and accepted now: what the service admitted, for the rate a 429 measures. */
async function admitted(pacing: Pacing, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const sentAtMs = await pacing.beforeAttempt(undefined);
    pacing.afterAttempt('POST', '/v2/issuer/new_claim', 201, undefined, false, sentAtMs);
    pacing.attemptEnded();
  }
}

describe("Pacing: a 429's Retry-After over a second pauses the whole job", () => {
  it("a 429 with Retry-After: 2 holds every attempt, new ones and retries, until it ends; then they go at the service's rate", async () => {
    const time = virtualTime();
    const pacing = pacingOn(time, undefined);
    await admitted(pacing, 50);
    pacing.afterAttempt('POST', '/v2/issuer/new_claim', 429, '2');
    const waits = [attempt(pacing, time), attempt(pacing, time, 500), attempt(pacing, time, 3000)];
    await time.run();
    const [first, second, third] = await Promise.all(waits);
    expect(first).toBe(2000);
    // One turn later at the service's rate: 50 admitted in the last 0.9 s, cut to 0.7 of it and 2 s later nearly back: about 19 ms.
    expect(second).toBeGreaterThan(2015);
    expect(second).toBeLessThan(2025);
    expect(third).toBe(3000);
    expect(pacing.stats()).toMatchObject({ requests: 51, answered429: 1, pauses: 1, pausedMs: 2000 });
  });

  it("a 429 with Retry-After: 1 (a rate's next token, in whole seconds) holds only its own request: the others go at the service's rate", async () => {
    const time = virtualTime();
    const pacing = pacingOn(time, undefined);
    await admitted(pacing, 100);
    pacing.afterAttempt('POST', '/v2/issuer/new_claim', 429, '1');
    const waits = Array.from({ length: 5 }, async () => attempt(pacing, time));
    await time.run();
    const letGo = await Promise.all(waits);
    expect(letGo[0]).toBe(0);
    // 0.7 of about 100 a second: a turn each 14 or 15 ms.
    for (let index = 1; index < letGo.length; index++) {
      const gap = (letGo[index] ?? 0) - (letGo[index - 1] ?? 0);
      expect(gap).toBeGreaterThanOrEqual(13);
      expect(gap).toBeLessThanOrEqual(16);
    }
    expect(pacing.stats()).toMatchObject({ pauses: 0, pausedMs: 0, waitedForRate: 4, rate: { throttles: 1 } });
    expect(pacing.stats().rate.pacedMs).toBeGreaterThan(0);
  });

  it('a pause lengthened while attempts wait holds them to its new end; overlaps count once', async () => {
    const time = virtualTime();
    const pacing = pacingOn(time, undefined);
    pacing.afterAttempt('GET', '/v2/issuer/claims', 429, '2');
    const waiting = attempt(pacing, time);
    await time.run(500);
    pacing.afterAttempt('GET', '/v2/issuer/claims', 429, '3');
    // A shorter hint inside the pause changes nothing.
    pacing.afterAttempt('GET', '/v2/issuer/claims', 429, '2');
    await time.run();
    expect(await waiting).toBe(3500);
    expect(pacing.stats()).toMatchObject({ requests: 3, answered429: 3, pauses: 2, pausedMs: 3500 });
  });

  it('an attempt waiting for its token when a pause begins waits for the pause too', async () => {
    const time = virtualTime();
    const pacing = pacingOn(time, 1);
    const first = attempt(pacing, time);
    const second = attempt(pacing, time);
    await time.run(100);
    pacing.afterAttempt('POST', '/v2/issuer/new_claim', 429, '3');
    await time.run();
    expect([await first, await second]).toEqual([0, 3100]);
  });

  it.each([
    {
      name: 'a Retry-After over the cap is shortened to it',
      status: 429,
      retryAfter: '3600',
      capMs: 30_000,
      letGoAt: 30_000,
    },
    {
      name: 'an HTTP-date Retry-After is read against the clock',
      status: 429,
      retryAfter: 'Thu, 01 Jan 1970 00:00:04 GMT',
      capMs: 60_000,
      letGoAt: 4000,
    },
    {
      name: 'a single 503 with Retry-After pauses nothing (its own retry waits for it)',
      status: 503,
      retryAfter: '5',
      capMs: 60_000,
      letGoAt: 0,
    },
    {
      name: 'a 429 without Retry-After pauses nothing (its own retry backs off)',
      status: 429,
      retryAfter: undefined,
      capMs: 60_000,
      letGoAt: 0,
    },
    { name: 'Retry-After: 0 pauses nothing', status: 503, retryAfter: '0', capMs: 60_000, letGoAt: 0 },
    { name: 'an unreadable Retry-After pauses nothing', status: 429, retryAfter: 'soon', capMs: 60_000, letGoAt: 0 },
    { name: 'a Retry-After on another status pauses nothing', status: 500, retryAfter: '5', capMs: 60_000, letGoAt: 0 },
  ])('$name', async ({ status, retryAfter, capMs, letGoAt }) => {
    const time = virtualTime();
    const pacing = pacingOn(time, undefined, capMs);
    pacing.afterAttempt('GET', '/v2/issuer/events', status, retryAfter);
    const waiting = attempt(pacing, time);
    await time.run();
    expect(await waiting).toBe(letGoAt);
  });
});

describe('Pacing: refusals pause the job only when the service accepts nothing', () => {
  it('sporadic 503s with Retry-After pause nothing; a second with nothing accepted and ten refusals pauses the job', async () => {
    const time = virtualTime();
    const pacing = pacingOn(time, undefined);
    await attempt(pacing, time);
    // 1 refusal in 4: something accepted all along.
    for (let index = 0; index < 40; index++)
      pacing.afterAttempt('POST', '/v2/issuer/new_claim', index % 4 === 3 ? 503 : 201, '2');
    expect(pacing.stats()).toMatchObject({ answered503: 10, pauses: 0, downPauses: 0 });
    // A burst of refusals within the second after the last accepted answer: a service at its capacity, not down.
    const kinds = Array.from({ length: 12 }, () => pacing.afterAttempt('POST', '/v2/issuer/new_claim', 503, '2'));
    expect(kinds.every((kind) => kind === 'refused')).toBe(true);
    expect(pacing.stats()).toMatchObject({ pauses: 0, downPauses: 0 });
    // Still nothing accepted a second later: down, and the job waits out the Retry-After.
    await time.run(1000);
    pacing.afterAttempt('POST', '/v2/issuer/new_claim', 503, '2');
    expect(pacing.stats()).toMatchObject({ pauses: 1, downPauses: 1, pausedMs: 2000 });
    const waiting = attempt(pacing, time);
    await time.run();
    expect(await waiting).toBe(3000);
  });

  it('answers without a status (resets, timeouts) count as refusals; a service down without Retry-After pauses the job a second', async () => {
    const time = virtualTime();
    const pacing = pacingOn(time, undefined);
    await attempt(pacing, time);
    for (let index = 0; index < 10; index++) pacing.afterAttempt('GET', '/v2/issuer/claims', undefined, undefined);
    expect(pacing.stats()).toMatchObject({ failed: 10, pauses: 0 });
    await time.run(1500);
    pacing.afterAttempt('GET', '/v2/issuer/claims', undefined, undefined);
    expect(pacing.stats()).toMatchObject({ failed: 11, pauses: 1, downPauses: 1, pausedMs: 1000 });
  });

  it("a case's 503 (filing, run_workflow) neither pauses nor counts towards the service looking down", async () => {
    const time = virtualTime();
    const pacing = pacingOn(time, undefined);
    await attempt(pacing, time);
    await time.run(5000);
    const kinds = Array.from({ length: 30 }, () =>
      pacing.afterAttempt('POST', '/v2/issuer/cases/case_1/run_workflow', 503, '3', true),
    );
    expect(new Set(kinds)).toEqual(new Set(['case-unavailable']));
    expect(pacing.stats()).toMatchObject({ answered503: 30, caseUnavailable: 30, pauses: 0 });
  });

  it("a retry waiting out a 429, a refusal or a case's 503 is parked: told to the listeners while it waits, and only then", async () => {
    const time = virtualTime();
    const pacing = pacingOn(time, undefined);
    const parked: number[] = [];
    pacing.onParked((count) => parked.push(count));
    const first = attempt(pacing, time);
    const retries = [
      pacing.beforeAttempt(1000, 'case-unavailable'),
      pacing.beforeAttempt(500, 'refused'),
      pacing.beforeAttempt(200, 'rate-limited'),
    ];
    expect(parked).toEqual([1, 2, 3]);
    await time.run();
    await Promise.all(retries);
    await first;
    expect(parked).toEqual([1, 2, 3, 2, 1, 0]);
  });
});

describe('Pacing: places on the wire', () => {
  it('no more on the wire than the limit; a retry takes the next free place before any first attempt', async () => {
    const time = virtualTime();
    const pacing = pacingOn(time, undefined);
    pacing.limitOnWire(2);
    const order: string[] = [];
    const go = async (name: string, retryDelayMs?: number, previous?: 'refused') => {
      await pacing.beforeAttempt(retryDelayMs, previous);
      order.push(name);
    };
    const started = [go('a'), go('b'), go('c'), go('d')];
    await time.run();
    expect(order).toEqual(['a', 'b']);
    const retry = go('retry of x', 0, 'refused');
    await time.run();
    expect(order).toEqual(['a', 'b']);
    pacing.attemptEnded();
    await time.run();
    expect(order).toEqual(['a', 'b', 'retry of x']);
    pacing.attemptEnded();
    pacing.attemptEnded();
    await time.run();
    expect(order).toEqual(['a', 'b', 'retry of x', 'c', 'd']);
    // No limit: everything goes.
    pacing.limitOnWire(Number.POSITIVE_INFINITY);
    await Promise.all([...started, retry, go('e'), go('f'), go('g')]);
    expect(order.slice(-3)).toEqual(['e', 'f', 'g']);
  });
});

describe('Pacing: the retry budget', () => {
  it('retries of refusals beyond the budget (100 saved, a fifth of each first attempt, 10 a second) wait for it', async () => {
    const time = virtualTime();
    const pacing = pacingOn(time, undefined);
    await attempt(pacing, time);
    // 100 retries at once spend what was saved; the next ones come at 10 a second.
    const retries = Array.from({ length: 105 }, async () => {
      await pacing.beforeAttempt(0, 'refused');
      return time.now();
    });
    await time.run();
    const letGo = await Promise.all(retries);
    expect(letGo.filter((at) => at === 0)).toHaveLength(100);
    expect(letGo.slice(100)).toEqual([100, 200, 300, 400, 500]);
    expect(pacing.stats().retriesHeldBack).toBe(5);
    // A 429's or a case's retry takes nothing from it.
    const others = [pacing.beforeAttempt(0, 'rate-limited'), pacing.beforeAttempt(0, 'case-unavailable')];
    await time.run();
    await Promise.all(others);
    expect(pacing.stats().retriesHeldBack).toBe(5);
  });
});

describe('Pacing: listeners', () => {
  it('hear of every attempt and its kind, until they stop listening', () => {
    const time = virtualTime();
    const pacing = pacingOn(time, undefined, 10_000);
    const heard: AttemptReport[] = [];
    const stop = pacing.onAttempt((report) => heard.push(report));
    pacing.afterAttempt('POST', '/v2/issuer/new_claim', 201, undefined);
    pacing.afterAttempt('POST', '/v2/issuer/new_claim', 429, '20');
    pacing.afterAttempt('GET', '/v2/issuer/claims/CLM-1', 503, undefined);
    pacing.afterAttempt('GET', '/v2/issuer/claims/CLM-1', undefined, undefined);
    pacing.afterAttempt('POST', '/v2/issuer/claims/CLM-1/file', 503, '1', true);
    stop();
    pacing.afterAttempt('GET', '/v2/issuer/claims/CLM-1', 200, undefined);
    expect(heard).toEqual([
      {
        method: 'POST',
        path: '/v2/issuer/new_claim',
        status: 201,
        throttled: false,
        kind: 'accepted',
        retryAfterMs: undefined,
        pausedJob: false,
        sentAtMs: 0,
        latencyMs: 0,
        rateCut: false,
      },
      {
        method: 'POST',
        path: '/v2/issuer/new_claim',
        status: 429,
        throttled: true,
        kind: 'rate-limited',
        retryAfterMs: 10_000,
        pausedJob: true,
        sentAtMs: 0,
        latencyMs: 0,
        rateCut: true,
      },
      {
        method: 'GET',
        path: '/v2/issuer/claims/CLM-1',
        status: 503,
        throttled: true,
        kind: 'refused',
        retryAfterMs: undefined,
        pausedJob: false,
        sentAtMs: 0,
        latencyMs: 0,
        rateCut: false,
      },
      {
        method: 'GET',
        path: '/v2/issuer/claims/CLM-1',
        status: undefined,
        throttled: false,
        kind: 'failed',
        retryAfterMs: undefined,
        pausedJob: false,
        sentAtMs: 0,
        latencyMs: 0,
        rateCut: false,
      },
      {
        method: 'POST',
        path: '/v2/issuer/claims/CLM-1/file',
        status: 503,
        throttled: true,
        kind: 'case-unavailable',
        retryAfterMs: 1000,
        pausedJob: false,
        sentAtMs: 0,
        latencyMs: 0,
        rateCut: false,
      },
    ]);
    expect(pacing.stats()).toMatchObject({
      requests: 6,
      answered429: 1,
      answered503: 2,
      caseUnavailable: 1,
      failed: 1,
      pauses: 1,
      pausedMs: 10_000,
    });
  });
});
