import { describe, expect, it } from 'vitest';
import {
  defaultRetryScheduleMs,
  isDelivered,
  nextStep,
  parseRetrySchedule,
  validateRetrySchedule,
  WebhookConfigError,
} from '../../../src/sandbox/webhooks/schedule.js';

describe('retry schedule', () => {
  it.each([
    ['1s,5s,30s', [1000, 5000, 30_000]],
    ['250,500,1000', [250, 500, 1000]],
    [' 100ms , 1.5s ', [100, 1500]],
    ['2m,1h', [120_000, 3_600_000]],
    ['0', [0]],
    ['none', []],
  ])('parses %j', (text, expected) => {
    expect(parseRetrySchedule(text)).toEqual(expected);
  });

  it.each([
    ['', "retry schedule: expected a comma-separated list of waits like 1s,5s,30s (or none), got ''"],
    ['5x', "retry schedule entry 1: expected a number with an optional unit (ms, s, m, h), like 500 or 5s, got '5x'"],
    ['1s,,2s', "retry schedule entry 2: expected a number with an optional unit (ms, s, m, h), like 500 or 5s, got ''"],
    ['-1s', "retry schedule entry 1: expected a number with an optional unit (ms, s, m, h), like 500 or 5s, got '-1s'"],
    ['1s,25h', 'retry schedule entry 2: expected a whole number of milliseconds from 0 to 86400000, got 90000000'],
  ])('refuses %j, saying what it expected', (text, message) => {
    expect(() => parseRetrySchedule(text)).toThrow(new WebhookConfigError(message));
  });

  it('checks schedules given as numbers the same way', () => {
    expect(validateRetrySchedule([10, 10, 10])).toEqual([10, 10, 10]);
    expect(() => validateRetrySchedule([10, 1.5])).toThrow(
      'retry schedule entry 2: expected a whole number of milliseconds from 0 to 86400000, got 1.5',
    );
    expect(() => validateRetrySchedule(Array.from({ length: 101 }, () => 1))).toThrow(
      'retry schedule: expected at most 100 retries, got 101',
    );
    try {
      validateRetrySchedule([-1]);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ name: 'WebhookConfigError', code: 'WEBHOOK_CONFIG' });
    }
  });

  it('defaults to production shape scaled down: six retries, under two minutes in all', () => {
    expect(defaultRetryScheduleMs).toEqual([1000, 2000, 5000, 10_000, 30_000, 60_000]);
    expect(defaultRetryScheduleMs.reduce((sum, delayMs) => sum + delayMs, 0)).toBeLessThan(120_000);
  });

  it('retries after the n-th wait following attempt n, and gives up once the waits are spent', () => {
    const schedule = [10, 20, 30];
    expect(nextStep(1, schedule, true)).toEqual({ outcome: 'delivered' });
    expect(nextStep(1, schedule, false)).toEqual({ outcome: 'retrying', delayMs: 10 });
    expect(nextStep(3, schedule, false)).toEqual({ outcome: 'retrying', delayMs: 30 });
    expect(nextStep(4, schedule, false)).toEqual({ outcome: 'failed' });
    expect(nextStep(4, schedule, true)).toEqual({ outcome: 'delivered' });
    expect(nextStep(1, [], false)).toEqual({ outcome: 'failed' });
  });

  it.each([
    [200, true],
    [204, true],
    [299, true],
    [199, false],
    [301, false],
    [404, false],
    [500, false],
    [null, false],
  ])('counts status %j as delivered: %j', (status, delivered) => {
    expect(isDelivered(status)).toBe(delivered);
  });
});
