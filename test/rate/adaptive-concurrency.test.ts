import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency, type AdaptiveConcurrencyOptions } from '../../src/rate/adaptive-concurrency.js';

/**
 * The pure AIMD behind the import's and migrate-v1's claims in flight (issue 13): each case is a
 * list of answers (throttled "T" or not "s") and the limit after each one.
 */

interface Case {
  name: string;
  options: AdaptiveConcurrencyOptions;
  /** "T": a 429 or 503; "s": any other answer. */
  answers: string;
  limits: number[];
}

const cases: Case[] = [
  {
    name: 'each throttled answer halves the limit, down to 1 and no lower',
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
    name: 'a throttled answer starts the run of successes again',
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

describe('AdaptiveConcurrency', () => {
  it.each(cases)('$name', ({ options, answers, limits }) => {
    const controller = new AdaptiveConcurrency(options, 0);
    expect(controller.limit).toBe(options.max);
    const seen = answers.split('').map((answer, index) => {
      if (answer === 'T') controller.throttled(index);
      else controller.succeeded(index);
      return controller.limit;
    });
    expect(seen).toEqual(limits);
  });

  it('says whether each answer moved the limit, so the caller applies only changes', () => {
    const controller = new AdaptiveConcurrency({ max: 2, growAfterSuccesses: 2 }, 0);
    expect([controller.throttled(0), controller.throttled(0), controller.succeeded(0), controller.succeeded(0), controller.succeeded(0), controller.succeeded(0)]).toEqual([
      true, false, false, true, false, false,
    ]);
  });

  it('counts what happened, and where the limit settled: the one held longest', () => {
    const controller = new AdaptiveConcurrency({ max: 8, growAfterSuccesses: 2 }, 0);
    controller.throttled(1000); // 8 for 1 s
    controller.throttled(1000); // 4 for no time
    controller.succeeded(1500);
    controller.succeeded(2000); // 2 for 1 s, then 3
    expect(controller.stats(10_000)).toEqual({ max: 8, current: 3, lowest: 2, settled: 3, throttled: 2, cuts: 2, increases: 1 });
    // Later in the same run, 8 s at 3 are outweighed by 10 s more at 1; the second cut found nothing to cut.
    controller.throttled(10_000);
    controller.throttled(10_000);
    expect(controller.stats(20_000)).toEqual({ max: 8, current: 1, lowest: 1, settled: 1, throttled: 4, cuts: 3, increases: 1 });
  });

  it('a run never throttled settled at max; a tie goes to the lower limit', () => {
    expect(new AdaptiveConcurrency({ max: 16 }, 0).stats(60_000)).toMatchObject({ settled: 16, lowest: 16, current: 16, throttled: 0 });
    const tied = new AdaptiveConcurrency({ max: 4 }, 0);
    tied.throttled(1000);
    expect(tied.stats(2000)).toMatchObject({ settled: 2, current: 2, lowest: 2 });
  });

  it.each([
    { options: { max: 0 }, message: 'adaptive concurrency max: expected a whole number from 1 up, got 0' },
    { options: { max: 2.5 }, message: 'adaptive concurrency max: expected a whole number from 1 up, got 2.5' },
    { options: { max: 4, min: 5 }, message: 'adaptive concurrency min: expected at most max (4), got 5' },
    { options: { max: 4, decreaseFactor: 1 }, message: 'adaptive concurrency decreaseFactor: expected a number between 0 and 1, got 1' },
    { options: { max: 4, decreaseFactor: 0 }, message: 'adaptive concurrency decreaseFactor: expected a number between 0 and 1, got 0' },
    { options: { max: 4, growAfterSuccesses: 0 }, message: 'adaptive concurrency growAfterSuccesses: expected a whole number from 1 up, got 0' },
  ])('refuses $options', ({ options, message }) => {
    expect(() => new AdaptiveConcurrency(options, 0)).toThrow(message);
  });
});
