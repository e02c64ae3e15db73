import { describe, expect, it } from 'vitest';
import { Progress } from '../../src/import/progress.js';

/** A terminal that records what was drawn, with a clock the test moves. */
function terminal(isTTY: boolean, columns = 80) {
  const state = { drawn: '', nowMs: 1000 };
  const progress = new Progress({ isTTY, columns, write: (text: string) => (state.drawn += text) }, () => state.nowMs);
  return { state, progress };
}

describe('Progress', () => {
  it('redraws at most every 100 ms, but always draws the finished state', () => {
    const { state, progress } = terminal(true);
    progress.claims(0, 4);
    progress.claims(1, 4);
    state.nowMs = 1050;
    progress.claims(2, 4);
    expect(state.drawn).toBe('\r\u001b[2Kclaims [........................] 0/4 0%');
    state.nowMs = 1060;
    progress.claims(4, 4);
    expect(state.drawn.endsWith('\r\u001b[2Kclaims [########################] 4/4 100%')).toBe(true);
    progress.done();
    expect(state.drawn.endsWith('\r\u001b[2K')).toBe(true);
  });

  it('names what staging reads', () => {
    const { state, progress } = terminal(true);
    progress.staged(12345, 'v1 cases');
    expect(state.drawn).toBe('\r\u001b[2Kstaging: 12,345 v1 cases read');
  });

  it('keeps to the terminal\'s width, less one column so the cursor never wraps', () => {
    const { state, progress } = terminal(true, 20);
    progress.staged(12345, 'v1 cases');
    expect(state.drawn).toBe('\r\u001b[2Kstaging: 12,345 v1 ');
  });

  it('writes nothing when stderr is not a terminal (a job\'s logs stay clean)', () => {
    const { state, progress } = terminal(false);
    progress.staged(1);
    progress.claims(1, 1);
    progress.done();
    expect(state.drawn).toBe('');
  });
});
