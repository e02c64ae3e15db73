import { describe, expect, it } from 'vitest';
import type { AttemptListener } from '../../src/api/client/index.js';
import { answerKind } from '../../src/api/client/answer-kind.js';
import { Progress } from '../../src/progress/progress.js';
import { showBreaker, showServiceWaits } from '../../src/progress/service-notices.js';

/** A terminal that records what was drawn, with a clock and a ticker the test moves by hand. */
function terminal(isTTY: boolean, columns = 160) {
  const state = { drawn: '', nowMs: 1000, ticks: [] as (() => void)[], stopped: 0 };
  const ticker = (_everyMs: number, tick: () => void) => {
    state.ticks.push(tick);
    return () => {
      state.stopped++;
    };
  };
  const progress = new Progress(
    { isTTY, columns, write: (text: string) => (state.drawn += text) },
    () => state.nowMs,
    ticker,
  );
  /** The line drawn last. */
  const line = () => state.drawn.split('\r\u001b[2K').at(-1) ?? '';
  return { state, progress, line };
}

describe('Progress', () => {
  it('sending: done of total, the rate and ETA over the last 30 s, elapsed, and the counts by outcome', () => {
    const { state, progress, line } = terminal(true);
    progress.begin({ label: 'sending', unit: 'claims', total: 1000 });
    for (const outcome of ['filed', 'not_filed', 'invalid']) progress.count(outcome, 0);
    // 10 claims a second for 20 s.
    for (let second = 1; second <= 20; second++) {
      state.nowMs = 1000 + second * 1000;
      progress.count('filed', 9);
      progress.count('invalid', 1);
      progress.update(second * 10);
    }
    expect(line()).toBe(
      'sending [####................] 200/1,000 claims 20%  10 claims/s  elapsed 20s  ETA 1m20s  filed 180  invalid 20',
    );
  });

  it('follows the pace of now: after a slowdown the ETA grows, the window forgets the fast start', () => {
    const { state, progress, line } = terminal(true);
    progress.begin({ label: 'sending', unit: 'claims', total: 10_000 });
    // 100 a second for a minute, then 10 a second for 40 s.
    let done = 0;
    for (let second = 1; second <= 100; second++) {
      state.nowMs = 1000 + second * 1000;
      done += second <= 60 ? 100 : 10;
      progress.update(done);
    }
    const view = progress.view();
    expect(view?.perSecond).toBeCloseTo(10, 5);
    expect(view?.etaMs).toBeCloseTo(((10_000 - 6400) / 10) * 1000, -2);
    expect(line()).toContain('6,400/10,000 claims 64%  10 claims/s  elapsed 1m40s  ETA 6m00s');
  });

  it('says nothing of a rate or an ETA until it has a second of data; a stalled job has no ETA', () => {
    const { state, progress, line } = terminal(true);
    progress.begin({ label: 'sending', unit: 'claims', total: 10 });
    state.nowMs += 500;
    progress.update(1);
    expect(line()).toBe('sending [##..................] 1/10 claims 10%  elapsed 0.5s  ETA ?');
    // Nothing for 40 s: the window holds no progress at all.
    state.nowMs += 40_000;
    state.ticks[0]?.();
    expect(line()).toBe('sending [##..................] 1/10 claims 10%  0.0 claims/s  elapsed 41s  ETA ?');
  });

  it('staging: rows read, rows/s and the share of the file read, with an ETA from it', () => {
    const { state, progress, line } = terminal(true);
    for (let second = 1; second <= 4; second++) {
      state.nowMs = 1000 + second * 1000;
      progress.staged(second * 5000, 'rows', second / 10);
    }
    // The phase began at the first call, with 5,000 rows read: 20,000 rows and 40% of the file in 3 s.
    expect(line()).toBe(
      'staging [########............] 20,000 rows 40% of the file  6,667 rows/s  elapsed 3.0s  ETA 4.5s',
    );
  });

  it("a stream without a total (export, a workbook's staging): the count and the rate only", () => {
    const { state, progress, line } = terminal(true);
    progress.begin({ label: 'exporting', unit: 'events' });
    state.nowMs += 2000;
    progress.update(1234);
    expect(line()).toBe('exporting 1,234 events  617 events/s  elapsed 2.0s');
  });

  it('shows what the job waits on, counting a pause down, and forgets it once over', () => {
    const { state, progress, line } = terminal(true);
    progress.begin({ label: 'sending', unit: 'claims', total: 4 });
    state.nowMs += 100;
    progress.notice('wait', 'paused {left} (429 Retry-After)', { untilMs: state.nowMs + 12_000, countdown: true });
    expect(line()).toContain('ETA ?  paused 12s (429 Retry-After)');
    state.nowMs += 3000;
    state.ticks[0]?.();
    expect(line()).toContain('paused 9.0s (429 Retry-After)');
    state.nowMs += 9000;
    state.ticks[0]?.();
    expect(line()).not.toContain('paused');
    progress.notice('breaker', '3 failed in a row (stops at 5)');
    state.nowMs += 200;
    state.ticks[0]?.();
    expect(line()).toContain('3 failed in a row (stops at 5)');
    progress.notice('breaker', undefined);
    state.nowMs += 200;
    state.ticks[0]?.();
    expect(line()).not.toContain('failed in a row');
  });

  it("keeps to the terminal's width, less one column, leaving out the bar, elapsed and the counts before the ETA", () => {
    const { state, progress, line } = terminal(true, 50);
    progress.begin({ label: 'sending', unit: 'claims', total: 100 });
    progress.count('filed', 40);
    state.nowMs += 10_000;
    progress.update(50);
    expect(line()).toBe('sending 50/100 claims 50%  5.0 claims/s  ETA 10s');
    expect(line().length).toBeLessThanOrEqual(49);
  });

  it('on a narrow terminal, leaves out the last counts first and keeps the first', () => {
    const { state, progress, line } = terminal(true, 72);
    progress.begin({ label: 'sending', unit: 'claims', total: 100 });
    progress.count('filed', 40);
    progress.count('invalid', 5);
    progress.count('failed', 1);
    state.nowMs += 10_000;
    progress.update(50);
    expect(line()).toBe('sending 50/100 claims 50%  5.0 claims/s  ETA 10s  filed 40  invalid 5');
  });

  it('redraws at most every 100 ms, but always draws the finished state', () => {
    const { state, progress } = terminal(true);
    progress.claims(0, 4);
    const drawn = state.drawn;
    progress.claims(1, 4);
    state.nowMs += 50;
    progress.claims(2, 4);
    expect(state.drawn).toBe(drawn);
    state.nowMs += 10;
    progress.claims(4, 4);
    expect(state.drawn.endsWith('[####################] 4/4 claims 100%  elapsed 0.1s  ETA 0.0s')).toBe(true);
  });

  it('a log line clears the progress line, is written whole, and the progress line is drawn again below it', () => {
    const { state, progress } = terminal(true);
    progress.begin({ label: 'sending', unit: 'claims', total: 4 });
    progress.interrupt(() => (state.drawn += '[12:00:00] WARN: claim failed\n'));
    // eslint-disable-next-line no-control-regex -- the clearing is what is asserted
    expect(state.drawn).toMatch(/claims 0%[^\n]*\r\u001b\[2K\[12:00:00\] WARN: claim failed\n\r\u001b\[2Ksending /);
  });

  it('done() clears the line and stops the ticker; a late notice draws nothing over the summary', () => {
    const { state, progress } = terminal(true);
    progress.begin({ label: 'sending', unit: 'claims', total: 4 });
    progress.done();
    expect(state.drawn.endsWith('\r\u001b[2K')).toBe(true);
    expect(state.stopped).toBe(1);
    const before = state.drawn;
    progress.notice('wait', 'retrying: the service answered 503');
    progress.interrupt(() => (state.drawn += 'summary\n'));
    expect(state.drawn).toBe(`${before}summary\n`);
  });

  it("writes nothing when stderr is not a terminal (a job's logs stay clean)", () => {
    const { state, progress } = terminal(false);
    progress.staged(1);
    progress.claims(1, 1);
    progress.notice('wait', 'paused');
    progress.done();
    expect(state.drawn).toBe('');
    expect(state.ticks).toEqual([]);
  });
});

describe('what the service makes the job wait on', () => {
  it('a Retry-After pause counted down (the latest end of overlapping ones), a 503 retried, a case unavailable, the breaker near stopping', () => {
    const { state, progress, line } = terminal(true);
    let listener: AttemptListener = () => undefined;
    const stop = showServiceWaits(
      { onAttempt: (heard) => ((listener = heard), () => undefined) },
      progress,
      () => state.nowMs,
    );
    progress.begin({ label: 'sending', unit: 'claims', total: 10 });
    const answer = (status: number | undefined, retryAfterMs?: number, caseScoped = false) => {
      state.nowMs += 200;
      const kind = answerKind(status, caseScoped);
      listener({
        method: 'POST',
        path: '/v2/issuer/new_claim',
        status,
        throttled: status === 429 || status === 503,
        kind,
        retryAfterMs,
        pausedJob: kind === 'rate-limited' && retryAfterMs !== undefined && retryAfterMs > 1000,
        sentAtMs: state.nowMs - 50,
        latencyMs: 50,
        rateCut: kind === 'rate-limited',
      });
    };
    answer(429, 3000);
    answer(429, 2000);
    expect(line()).toContain('paused 2.8s (429 Retry-After)');
    state.nowMs += 3000;
    // A second's Retry-After holds only its own request: the job goes on, paced.
    answer(429, 1000);
    expect(line()).toContain("rate limited (429): paced to the service's rate");
    expect(line()).not.toContain('paused');
    answer(500);
    expect(line()).toContain('retrying (500)');
    expect(line()).not.toContain('paused');
    // A single 503 with Retry-After pauses nothing: that request is retried on its own.
    answer(503, 1000);
    expect(line()).toContain('retrying (503)');
    answer(503, 1000, true);
    expect(line()).toContain('a case unavailable for filing (503): retried later');
    const breaker = showBreaker(progress);
    breaker({ recentFailures: 3, recentClaims: 4, threshold: 5 });
    state.nowMs += 200;
    state.ticks[0]?.();
    expect(line()).toContain('3 of 4 failed in the last minute (stops at 5 and half)');
    stop();
  });
});
