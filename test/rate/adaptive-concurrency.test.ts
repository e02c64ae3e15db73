import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency, type AdaptiveConcurrencyOptions } from '../../src/rate/adaptive-concurrency.js';

/**
 * The pure AIMD behind the senders' claims in flight (docs/rate-limits.md): each case is a list
 * of answers (rate limited "T", refused "X", accepted "s") and the limit after each one.
 */

/** Feeds `answers` to a new controller; the limit after each. */
function limitsAfter(options: AdaptiveConcurrencyOptions, answers: string): number[] {
  const controller = new AdaptiveConcurrency(options, 0);
  return Array.from(answers, (answer, index) => {
    if (answer === 'T') controller.rateLimited();
    else if (answer === 'X') controller.refused(index);
    else controller.succeeded(index);
    return controller.limit;
  });
}

/** A recorded sequence of `count` answers, each refused with probability `share` (a seeded LCG: the same every run). */
function sporadic(count: number, share: number, seed: number): string {
  let state = seed >>> 0;
  let answers = '';
  for (let index = 0; index < count; index++) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    answers += state / 2 ** 32 < share ? 'X' : 's';
  }
  return answers;
}

/** Thirteen refusals in a row: a fifth of the default window of 64, one cut for overload. */
const overload = 'X'.repeat(13);

describe('AdaptiveConcurrency: 429s and growth', () => {
  it('429s are counted and never move the limit: the pace follows them, not the claims in flight', () => {
    const controller = new AdaptiveConcurrency({ max: 32 }, 0);
    expect(limitsAfter({ max: 32 }, 'TTTTTTT')).toEqual([32, 32, 32, 32, 32, 32, 32]);
    for (let index = 0; index < 5; index++) controller.rateLimited();
    expect(controller.stats(1000)).toMatchObject({ rateLimited: 5, cuts: 0, current: 32, lowest: 32, settled: 32 });
  });

  it('after a cut, one more each 2 x max answers (the default), one at a time, never above max', () => {
    const limits = limitsAfter({ max: 4 }, overload + 's'.repeat(40));
    expect(limits.slice(0, 12)).toEqual(Array.from({ length: 12 }, () => 4));
    expect(limits[12]).toBe(2);
    // 8 answers after the cut: 3; 8 more (the step watched meanwhile): 4; then no higher.
    expect(limits.indexOf(3)).toBe(12 + 8);
    expect(limits.indexOf(4, 13)).toBe(12 + 16);
    expect(limits.at(-1)).toBe(4);
  });

  it('a sporadic refusal neither cuts nor starts the count again: growth waits only while the recent share refused is a tenth or more', () => {
    const plain = limitsAfter({ max: 4 }, overload + 's'.repeat(12));
    const withRefusal = limitsAfter({ max: 4 }, overload + 'sssX' + 's'.repeat(12));
    expect(plain.indexOf(3)).toBe(12 + 8);
    // One refusal in the 8 answers since the cut is an eighth: growth waits for 10 answers (a tenth), then goes on: 11, not 8 more.
    expect(withRefusal.indexOf(3)).toBe(12 + 11);
    expect(Math.min(...withRefusal.slice(13))).toBe(2);
  });

  it('answers while fewer requests were on the wire than the limit do not count towards growth (a limit not filled says nothing)', () => {
    const controller = new AdaptiveConcurrency({ max: 4 }, 0);
    for (let index = 0; index < 13; index++) controller.refused(0);
    expect(controller.limit).toBe(2);
    for (let index = 0; index < 100; index++) controller.succeeded(0, false);
    expect(controller.limit).toBe(2);
    for (let index = 0; index < 8; index++) controller.succeeded(0, true);
    expect(controller.limit).toBe(3);
  });

  it('a step up that brought a few refusals, too few to take it back, is kept, and the next step waits twice as long', () => {
    const stepsUp = (refusalsInWatch: number): number[] => {
      const controller = new AdaptiveConcurrency({ max: 16, growAfter: 20, window: 64 }, 0);
      for (let index = 0; index < 13; index++) controller.refused(0);
      const at: number[] = [];
      for (let answer = 0; answer < 200; answer++) {
        const before = controller.limit;
        // The first step's watch (its first 20 answers) gets `refusalsInWatch` refusals; nothing else is refused.
        const watching = at.length === 1 && answer - (at[0] ?? 0) <= refusalsInWatch;
        if (watching) controller.refused(answer);
        else controller.succeeded(answer);
        if (controller.limit > before) at.push(answer);
      }
      return at;
    };
    // None in its watch: the next step comes 20 answers after the first.
    const clean = stepsUp(0);
    expect((clean[1] ?? 0) - (clean[0] ?? 0)).toBe(20);
    // Two (more than none before, plus one for chance), under the three that take a step back: kept, the next after 40.
    const few = stepsUp(2);
    expect((few[1] ?? 0) - (few[0] ?? 0)).toBe(40);
  });

  it('says whether each answer moved the limit, so the caller applies only changes', () => {
    const controller = new AdaptiveConcurrency({ max: 2, growAfter: 2, window: 5 }, 0);
    expect([
      controller.refused(0),
      controller.refused(0),
      controller.succeeded(0),
      controller.succeeded(0),
      controller.succeeded(0),
    ]).toEqual([true, false, false, false, false]);
    expect(controller.limit).toBe(1);
  });

  it('counts what happened, and where the limit settled: the one held longest; heldMs is the time under max', () => {
    const controller = new AdaptiveConcurrency({ max: 8, growAfter: 2, window: 5 }, 0);
    controller.refused(1000); // 8 for 1 s, then 4
    controller.succeeded(2000);
    controller.succeeded(2000); // 4 for 1 s, then 5
    expect(controller.stats(10_000)).toEqual({
      max: 8,
      current: 5,
      lowest: 4,
      settled: 5,
      settledMs: 8000,
      rateLimited: 0,
      refused: 1,
      cuts: 1,
      overloadCuts: 1,
      increases: 1,
      stepBacks: 0,
      heldMs: 9000,
    });
  });

  it('a run never throttled settled at max; a tie goes to the lower limit', () => {
    expect(new AdaptiveConcurrency({ max: 16 }, 0).stats(60_000)).toMatchObject({
      settled: 16,
      lowest: 16,
      current: 16,
      rateLimited: 0,
      heldMs: 0,
    });
    const tied = new AdaptiveConcurrency({ max: 4, window: 5 }, 0);
    tied.refused(1000);
    expect(tied.stats(2000)).toMatchObject({ settled: 2, current: 2, lowest: 2 });
  });

  it('a floor above 1 holds, and a gentler cut (0.75) cuts less', () => {
    expect(limitsAfter({ max: 10, min: 3 }, 'X'.repeat(13 + 11 + 6)).at(-1)).toBe(3);
    expect(limitsAfter({ max: 16, decreaseFactor: 0.75 }, overload)).toContain(12);
  });
});

describe('AdaptiveConcurrency: refusals (503, no answer)', () => {
  it('one refusal alone cuts nothing, nor a few in a row', () => {
    const answers = 'sX' + 's'.repeat(20) + 'XXXX' + 's'.repeat(100);
    expect(limitsAfter({ max: 32 }, answers)).toEqual(Array.from({ length: answers.length }, () => 32));
  });

  it.each([
    { share: 0.01, seed: 7 },
    { share: 0.05, seed: 11 },
    { share: 0.05, seed: 12 },
  ])('sporadic refusals at $share (seed $seed), 4,000 answers: never a cut', ({ share, seed }) => {
    const answers = sporadic(4000, share, seed);
    expect(answers.split('X').length - 1).toBeGreaterThan(4000 * share * 0.7);
    const controller = new AdaptiveConcurrency({ max: 32 }, 0);
    for (const answer of answers) {
      if (answer === 'X') controller.refused(0);
      else controller.succeeded(0);
    }
    expect(controller.stats(0)).toMatchObject({ current: 32, lowest: 32, cuts: 0 });
  });

  it('after a cut, growth comes back through sporadic refusals, slower the more there are', () => {
    const grownAfter = (share: number, answers: number) => {
      const controller = new AdaptiveConcurrency({ max: 32 }, 0);
      for (let index = 0; index < 13; index++) controller.refused(0);
      expect(controller.limit).toBe(16);
      for (const answer of sporadic(answers, share, 3)) {
        if (answer === 'X') controller.refused(0);
        else controller.succeeded(0);
      }
      return controller.limit;
    };
    // Without refusals, 16 steps of 64 answers: back at 32 after 1,024.
    expect(grownAfter(0, 1024)).toBe(32);
    expect(grownAfter(0.01, 2000)).toBe(32);
    const atFivePercent = grownAfter(0.05, 2000);
    expect(atFivePercent).toBeGreaterThan(16);
    expect(atFivePercent).toBeLessThan(32);
  });

  it('correlated refusals (overload): one cut once a fifth of a window is refused, none while the answers in flight at the cut come in', () => {
    // A quarter of the answers refused: the 13th refusal (a fifth of a window of 64) is the 52nd
    // answer and cuts 16 → 8; the next judgement waits for the 16 answers in flight at the cut
    // (4 refusals among them), then 9 more refusals: 36 answers.
    const limits = limitsAfter({ max: 16 }, 'sssX'.repeat(100));
    expect(limits.indexOf(8)).toBe(51);
    const cuts = limits.flatMap((limit, index) => (index > 0 && limit < (limits[index - 1] ?? 0) ? [index] : []));
    expect(cuts).toEqual([51, 51 + 52, 51 + 52 * 2, 51 + 52 * 3]);
    expect(limits.at(-1)).toBe(1);
  });

  it('a service that is down: cuts to the floor, once per answers in flight at the last cut', () => {
    const limits = limitsAfter({ max: 32 }, 'X'.repeat(400));
    expect(limits.at(-1)).toBe(1);
    expect(new Set(limits)).toEqual(new Set([32, 16, 8, 4, 2, 1]));
    // 13 refusals, then the 32 in flight at the cut and one more, then 16 and one more...
    expect(limits.indexOf(16)).toBe(12);
    expect(limits.indexOf(8)).toBe(12 + 33);
    expect(limits.indexOf(4)).toBe(12 + 33 + 17);
  });

  it('a step up that brings refusals is taken back, and the next step up waits four times as long (a service at its capacity)', () => {
    // At capacity: every answer accepted while the limit is at 8 or under; above it, the request
    // too many is refused at once, and each one sent in its place too.
    const controller = new AdaptiveConcurrency({ max: 16 }, 0);
    for (let index = 0; index < 13; index++) controller.refused(0);
    expect(controller.limit).toBe(8);
    const atCapacity = 8;
    const stepsUp: number[] = [];
    for (let answer = 0; answer < 6000; answer++) {
      const before = controller.limit;
      if (controller.limit > atCapacity) controller.refused(answer);
      else controller.succeeded(answer);
      if (controller.limit > before) stepsUp.push(answer);
    }
    // Each step up to 9 is taken back after 3 refusals; the waits between steps up grow fourfold: 128, 512, 2,048 answers, then stay.
    expect(controller.limit).toBe(atCapacity);
    const waits = stepsUp.slice(1).map((at, index) => at - (stepsUp[index] ?? 0));
    expect(waits.slice(0, 4)).toEqual([32 * 4 + 3, 32 * 16 + 3, 32 * 64 + 3, 32 * 64 + 3]);
    expect(controller.stats(6000)).toMatchObject({
      stepBacks: stepsUp.length,
      overloadCuts: 1,
      refused: 13 + 3 * stepsUp.length,
    });
  });

  it('sporadic refusals come as often before a step up as after it: steps up are seldom taken back', () => {
    const controller = new AdaptiveConcurrency({ max: 32 }, 0);
    for (let index = 0; index < 13; index++) controller.refused(0);
    for (const answer of sporadic(20_000, 0.01, 7)) {
      if (answer === 'X') controller.refused(0);
      else controller.succeeded(0);
    }
    expect(controller.limit).toBe(32);
    expect(controller.stats(0).stepBacks).toBeLessThanOrEqual(2);
  });

  it('counts refusals and the cuts they made; a 429 cuts nothing', () => {
    const controller = new AdaptiveConcurrency({ max: 8, window: 10 }, 0);
    for (const answer of 'XXXXXXXXXXT') {
      if (answer === 'X') controller.refused(0);
      else controller.rateLimited();
    }
    expect(controller.stats(0)).toMatchObject({ rateLimited: 1, refused: 10, cuts: 1, overloadCuts: 1, current: 4 });
  });
});

describe('AdaptiveConcurrency: options', () => {
  it.each([
    { options: { max: 0 }, message: 'adaptive concurrency max: expected a whole number from 1 up, got 0' },
    { options: { max: 2.5 }, message: 'adaptive concurrency max: expected a whole number from 1 up, got 2.5' },
    { options: { max: 4, min: 5 }, message: 'adaptive concurrency min: expected at most max (4), got 5' },
    {
      options: { max: 4, decreaseFactor: 1 },
      message: 'adaptive concurrency decreaseFactor: expected a number between 0 and 1, got 1',
    },
    {
      options: { max: 4, decreaseFactor: 0 },
      message: 'adaptive concurrency decreaseFactor: expected a number between 0 and 1, got 0',
    },
    {
      options: { max: 4, growAfter: 0 },
      message: 'adaptive concurrency growAfter: expected a whole number from 1 up, got 0',
    },
    {
      options: { max: 4, overloadShare: 1.5 },
      message: 'adaptive concurrency overloadShare: expected a number between 0 and 1, got 1.5',
    },
  ])('refuses $options', ({ options, message }) => {
    expect(() => new AdaptiveConcurrency(options, 0)).toThrow(message);
  });
});
