import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency, type AdaptiveConcurrencyOptions } from '../../src/rate/adaptive-concurrency.js';

/**
 * The pure AIMD behind the senders' claims in flight (docs/rate-limits.md): each case is a list
 * of answers (rate limited "T", refused "X", accepted "s") and the limit after each one.
 */

interface Case {
  name: string;
  options: AdaptiveConcurrencyOptions;
  /** "T": a 429; "X": a 503 or no answer; "s": any other answer. */
  answers: string;
  limits: number[];
}

/** Feeds `answers` to a new controller; the limit after each. */
function limitsAfter(options: AdaptiveConcurrencyOptions, answers: string): number[] {
  const controller = new AdaptiveConcurrency(options, 0);
  return Array.from(answers, (answer, index) => {
    if (answer === 'T') controller.rateLimited(index);
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

const cases: Case[] = [
  {
    name: 'each 429 halves the limit, down to 1 and no lower',
    options: { max: 32 },
    answers: 'TTTTTTT',
    limits: [16, 8, 4, 2, 1, 1, 1],
  },
  {
    name: 'halving rounds down',
    options: { max: 7 },
    answers: 'TTT',
    limits: [3, 1, 1],
  },
  {
    name: 'one more after 2 x max unthrottled answers in a row (the default run)',
    options: { max: 4 },
    answers: 'Tsssssssssssssss',
    limits: [2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3],
  },
  {
    name: 'grows one at a time, never above max',
    options: { max: 4, growAfterSuccesses: 2 },
    answers: 'TTssssssss',
    limits: [2, 1, 1, 2, 2, 3, 3, 4, 4, 4],
  },
  {
    name: 'a 429 takes back every success towards the next step',
    options: { max: 8, growAfterSuccesses: 3 },
    answers: 'TssTsssss',
    limits: [4, 4, 4, 2, 2, 2, 3, 3, 3],
  },
  {
    name: 'never throttled: stays at max',
    options: { max: 3, growAfterSuccesses: 1 },
    answers: 'ssssss',
    limits: [3, 3, 3, 3, 3, 3],
  },
  {
    name: 'a floor above 1 holds',
    options: { max: 10, min: 3 },
    answers: 'TTT',
    limits: [5, 3, 3],
  },
  {
    name: 'a gentler cut (0.75)',
    options: { max: 16, decreaseFactor: 0.75 },
    answers: 'TTTTTTTT',
    limits: [12, 9, 6, 4, 3, 2, 1, 1],
  },
  {
    name: 'max 1: nothing to cut, nothing to grow',
    options: { max: 1, growAfterSuccesses: 1 },
    answers: 'TsTs',
    limits: [1, 1, 1, 1],
  },
];

describe('AdaptiveConcurrency: 429s', () => {
  it.each(cases)('$name', ({ options, answers, limits }) => {
    expect(new AdaptiveConcurrency(options, 0).limit).toBe(options.max);
    expect(limitsAfter(options, answers)).toEqual(limits);
  });

  it('says whether each answer moved the limit, so the caller applies only changes', () => {
    const controller = new AdaptiveConcurrency({ max: 2, growAfterSuccesses: 2 }, 0);
    expect([
      controller.rateLimited(0),
      controller.rateLimited(0),
      controller.succeeded(0),
      controller.succeeded(0),
      controller.succeeded(0),
      controller.succeeded(0),
    ]).toEqual([true, false, false, true, false, false]);
  });

  it('counts what happened, and where the limit settled: the one held longest', () => {
    const controller = new AdaptiveConcurrency({ max: 8, growAfterSuccesses: 2 }, 0);
    controller.rateLimited(1000); // 8 for 1 s
    controller.rateLimited(1000); // 4 for no time
    controller.succeeded(1500);
    controller.succeeded(2000); // 2 for 1 s, then 3
    expect(controller.stats(10_000)).toEqual({
      max: 8,
      current: 3,
      lowest: 2,
      settled: 3,
      settledMs: 8000,
      rateLimited: 2,
      refused: 0,
      cuts: 2,
      overloadCuts: 0,
      increases: 1,
      stepBacks: 0,
    });
    // Later in the same run, 8 s at 3 are outweighed by 10 s more at 1; the second cut found nothing to cut.
    controller.rateLimited(10_000);
    controller.rateLimited(10_000);
    expect(controller.stats(20_000)).toEqual({
      max: 8,
      current: 1,
      lowest: 1,
      settled: 1,
      settledMs: 10_000,
      rateLimited: 4,
      refused: 0,
      cuts: 3,
      overloadCuts: 0,
      increases: 1,
      stepBacks: 0,
    });
  });

  it('a run never throttled settled at max; a tie goes to the lower limit', () => {
    expect(new AdaptiveConcurrency({ max: 16 }, 0).stats(60_000)).toMatchObject({
      settled: 16,
      lowest: 16,
      current: 16,
      rateLimited: 0,
    });
    const tied = new AdaptiveConcurrency({ max: 4 }, 0);
    tied.rateLimited(1000);
    expect(tied.stats(2000)).toMatchObject({ settled: 2, current: 2, lowest: 2 });
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
      controller.rateLimited(0);
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
    controller.rateLimited(0);
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
      overloadCuts: 0,
      refused: 3 * stepsUp.length,
    });
  });

  it('sporadic refusals come as often before a step up as after it: steps up are seldom taken back', () => {
    const controller = new AdaptiveConcurrency({ max: 32 }, 0);
    controller.rateLimited(0);
    for (const answer of sporadic(20_000, 0.01, 7)) {
      if (answer === 'X') controller.refused(0);
      else controller.succeeded(0);
    }
    expect(controller.limit).toBe(32);
    expect(controller.stats(0).stepBacks).toBeLessThanOrEqual(2);
  });

  it('counts refusals and the cuts they made apart from the 429s', () => {
    const controller = new AdaptiveConcurrency({ max: 8, window: 10 }, 0);
    for (const answer of 'XXXXXXXXXXT') {
      if (answer === 'X') controller.refused(0);
      else controller.rateLimited(0);
    }
    expect(controller.stats(0)).toMatchObject({ rateLimited: 1, refused: 10, cuts: 2, overloadCuts: 1, current: 2 });
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
      options: { max: 4, growAfterSuccesses: 0 },
      message: 'adaptive concurrency growAfterSuccesses: expected a whole number from 1 up, got 0',
    },
    {
      options: { max: 4, overloadShare: 1.5 },
      message: 'adaptive concurrency overloadShare: expected a number between 0 and 1, got 1.5',
    },
  ])('refuses $options', ({ options, message }) => {
    expect(() => new AdaptiveConcurrency(options, 0)).toThrow(message);
  });
});
