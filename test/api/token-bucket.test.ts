import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../src/api/token-bucket.js';

/**
 * The pure bucket behind `--max-rps` (reserve) and the sandbox's `--rate-limit` (tryTake): the
 * clock is a number passed in, so every case is a table of (time, expected answer), no sleeps.
 */

type Call = readonly [op: 'reserve' | 'tryTake' | 'available', nowMs: number, expected: number];

interface Case {
  name: string;
  perSecond: number;
  capacity: number;
  startMs?: number;
  calls: Call[];
}

const cases: Case[] = [
  {
    name: "reserve, capacity 1: the first goes at once, each next one a token's time after the one before",
    perSecond: 4,
    capacity: 1,
    calls: [
      ['reserve', 0, 0],
      ['reserve', 0, 250],
      ['reserve', 0, 500],
      ['reserve', 0, 750],
      ['available', 0, -3],
    ],
  },
  {
    name: 'reserve: bookings in debt are paid off by the clock',
    perSecond: 4,
    capacity: 1,
    calls: [
      ['reserve', 0, 0],
      ['reserve', 0, 250],
      ['reserve', 250, 250],
      ['reserve', 1000, 0],
      ['reserve', 1000, 250],
    ],
  },
  {
    name: 'reserve at the pace of the rate never waits',
    perSecond: 40,
    capacity: 1,
    calls: Array.from({ length: 80 }, (_, index): Call => ['reserve', index * 25, 0]),
  },
  {
    name: 'reserve after a quiet spell: the burst is the capacity, no more',
    perSecond: 10,
    capacity: 3,
    calls: [
      ['reserve', 0, 0],
      ['reserve', 0, 0],
      ['reserve', 0, 0],
      ['reserve', 0, 100],
      ['reserve', 60_000, 0],
      ['reserve', 60_000, 0],
      ['reserve', 60_000, 0],
      ['reserve', 60_000, 100],
    ],
  },
  {
    name: 'reserve below one a second: 0.5 is one every 2 s',
    perSecond: 0.5,
    capacity: 1,
    calls: [
      ['reserve', 0, 0],
      ['reserve', 0, 2000],
      ['reserve', 1000, 3000],
    ],
  },
  {
    name: 'tryTake: takes while there are tokens, then says when the next comes and takes nothing',
    perSecond: 2,
    capacity: 2,
    calls: [
      ['tryTake', 0, 0],
      ['tryTake', 0, 0],
      ['tryTake', 0, 500],
      ['tryTake', 0, 500],
      ['available', 0, 0],
      ['tryTake', 300, 200],
      ['tryTake', 500, 0],
    ],
  },
  {
    name: 'tryTake: a fractional wait is rounded up to the next millisecond',
    perSecond: 3,
    capacity: 1,
    calls: [
      ['tryTake', 0, 0],
      ['tryTake', 0, 334],
      ['tryTake', 333, 1],
      ['tryTake', 334, 0],
    ],
  },
  {
    name: 'a clock moved back adds nothing, and counts on from there',
    perSecond: 1,
    capacity: 1,
    startMs: 10_000,
    calls: [
      ['tryTake', 10_000, 0],
      ['tryTake', 2000, 1000],
      ['tryTake', 3000, 0],
    ],
  },
  {
    name: 'the bucket starts full',
    perSecond: 5,
    capacity: 5,
    calls: [
      ['available', 0, 5],
      ['tryTake', 0, 0],
      ['available', 0, 4],
      ['available', 100, 4.5],
      ['available', 10_000, 5],
    ],
  },
];

describe('TokenBucket', () => {
  it.each(cases)('$name', ({ perSecond, capacity, startMs, calls }) => {
    const bucket = new TokenBucket(perSecond, capacity, startMs ?? 0);
    const answers = calls.map(([op, nowMs]) => bucket[op](nowMs));
    expect(answers).toEqual(calls.map(([, , expected]) => expected));
  });

  it.each([
    { perSecond: 0, capacity: 1, message: 'token bucket rate: expected a positive number, got 0' },
    { perSecond: -1, capacity: 1, message: 'token bucket rate: expected a positive number, got -1' },
    { perSecond: Number.NaN, capacity: 1, message: 'token bucket rate: expected a positive number, got NaN' },
    {
      perSecond: Number.POSITIVE_INFINITY,
      capacity: 1,
      message: 'token bucket rate: expected a positive number, got Infinity',
    },
    { perSecond: 1, capacity: 0.5, message: 'token bucket capacity: expected a number from 1 up, got 0.5' },
    { perSecond: 1, capacity: Number.NaN, message: 'token bucket capacity: expected a number from 1 up, got NaN' },
  ])('refuses rate $perSecond, capacity $capacity', ({ perSecond, capacity, message }) => {
    expect(() => new TokenBucket(perSecond, capacity, 0)).toThrow(message);
  });
});
