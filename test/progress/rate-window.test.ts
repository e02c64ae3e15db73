import { describe, expect, it } from 'vitest';
import { formatDuration, formatRate } from '../../src/progress/duration.js';
import { formatPhases, PhaseTimer } from '../../src/progress/phases.js';
import { etaMs, RateWindow } from '../../src/progress/rate-window.js';

describe('RateWindow', () => {
  it('is the growth over the last 30 s, not the average since the start', () => {
    const window = new RateWindow(30_000);
    // 50 a second for 60 s, then 5 a second for 30 s.
    let count = 0;
    for (let ms = 0; ms <= 90_000; ms += 100) {
      window.add(ms, count);
      count += ms < 60_000 ? 5 : 0.5;
    }
    expect(window.perSecond(90_000)).toBeCloseTo(5, 1);
  });

  it('counts time without progress: a stalled job slows to nothing', () => {
    const window = new RateWindow(30_000);
    window.add(0, 0);
    window.add(10_000, 100);
    expect(window.perSecond(10_000)).toBeCloseTo(10, 5);
    expect(window.perSecond(20_000)).toBeCloseTo(5, 5);
    expect(window.perSecond(45_000)).toBe(0);
  });

  it('has no rate before the window spans a second', () => {
    const window = new RateWindow();
    window.add(0, 0);
    window.add(500, 40);
    expect(window.perSecond(500)).toBeUndefined();
    expect(window.perSecond(1000)).toBe(40);
  });

  it('keeps a bounded number of samples however fast the count grows', () => {
    const window = new RateWindow(30_000, 250);
    for (let ms = 0; ms < 600_000; ms++) window.add(ms, ms);
    expect((window as unknown as { samples: unknown[] }).samples.length).toBeLessThanOrEqual(122);
    expect(window.perSecond(599_999)).toBeCloseTo(1000, 5);
  });
});

describe('etaMs', () => {
  it('is what remains at the rate, 0 when nothing remains, unknown when nothing moves', () => {
    expect(etaMs(300, 10)).toBe(30_000);
    expect(etaMs(0, undefined)).toBe(0);
    expect(etaMs(5, 0)).toBeUndefined();
    expect(etaMs(5, undefined)).toBeUndefined();
  });
});

describe('durations and rates as people read them', () => {
  it('formats like rclone: 2.1s, 42s, 3m12s, 1h02m', () => {
    expect(formatDuration(2149)).toBe('2.1s');
    expect(formatDuration(42_400)).toBe('42s');
    expect(formatDuration(192_000)).toBe('3m12s');
    expect(formatDuration(3_720_000)).toBe('1h02m');
    expect(formatDuration(-5)).toBe('0.0s');
    expect(formatRate(2.54)).toBe('2.5');
    expect(formatRate(1204.4)).toBe('1,204');
  });

  it("times phases one after another, the summary's line", () => {
    let nowMs = 0;
    const timer = new PhaseTimer(() => nowMs);
    timer.next('staging');
    nowMs = 2100;
    timer.next('sending');
    nowMs = 61_900;
    timer.next('results');
    nowMs = 63_000;
    const times = timer.end();
    expect(times).toEqual([
      { phase: 'staging', ms: 2100 },
      { phase: 'sending', ms: 59_800 },
      { phase: 'results', ms: 1100 },
    ]);
    expect(formatPhases(times)).toBe('took 1m03s: staging 2.1s, sending 1m00s, results 1.1s');
    expect(formatPhases([{ phase: 'exporting', ms: 3200 }])).toBe('took 3.2s');
  });

  it('times a phase started alongside the one running: how much of it overlapped, counted once in the total', () => {
    let nowMs = 0;
    const timer = new PhaseTimer(() => nowMs);
    timer.next('staging');
    nowMs = 300;
    timer.alongside('sending');
    nowMs = 2100;
    timer.stop('staging');
    nowMs = 40_000;
    timer.next('results');
    nowMs = 40_500;
    const times = timer.end();
    expect(times).toEqual([
      { phase: 'staging', ms: 2100 },
      { phase: 'sending', ms: 39_700, overlapMs: 1800 },
      { phase: 'results', ms: 500 },
    ]);
    expect(formatPhases(times)).toBe('took 41s: staging 2.1s, sending 40s (1.8s of it while staging), results 0.5s');
  });

  it('a phase started alongside one that has already ended did not overlap it', () => {
    let nowMs = 0;
    const timer = new PhaseTimer(() => nowMs);
    timer.next('staging');
    nowMs = 500;
    timer.stop('staging');
    nowMs = 600;
    timer.alongside('sending');
    nowMs = 1600;
    expect(timer.end()).toEqual([
      { phase: 'staging', ms: 500 },
      { phase: 'sending', ms: 1000 },
    ]);
  });
});
