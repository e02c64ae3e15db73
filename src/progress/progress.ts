import { formatDuration } from './duration.js';
import { progressLine, type ProgressView } from './line.js';
import { etaMs, RateWindow } from './rate-window.js';

/** Where the line is drawn: stderr, drawn on only when it is a terminal. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Calls `tick` every `everyMs` until the function it returns is called (a test ticks by hand). */
export type Ticker = (everyMs: number, tick: () => void) => () => void;

const intervalTicker: Ticker = (everyMs, tick) => {
  const timer = setInterval(tick, everyMs);
  // A progress line never keeps the process alive.
  timer.unref();
  return () => {
    clearInterval(timer);
  };
};

/** A phase of a job: what it is called, what it counts, and how many there are when that is known. */
export interface PhaseStart {
  label: string;
  unit: string;
  total?: number | undefined;
}

interface Phase extends PhaseStart {
  startedMs: number;
  done: number;
  share: number | undefined;
  rate: RateWindow;
  /** The share read, in millionths, for an ETA from a file's size. */
  shareRate: RateWindow;
  counts: Map<string, number>;
}

interface Notice {
  text: string;
  untilMs?: number | undefined;
  countdown?: boolean | undefined;
}

/** Share of the input in millionths: the rate window counts integers. */
const shareScale = 1_000_000;

/**
 * The one progress line on stderr when it is a terminal (a terminal for people, a pipe for
 * programs); silent otherwise, where JSON logs tell a job's story. It answers "how long?": done of
 * total, the rate over the last 30 s, elapsed, an ETA, the running counts by outcome, and what the
 * job is waiting on. Redrawn at most every 100 ms, and every second while a phase runs (a pause
 * with nothing finishing still counts down). The clock and the ticker are passed in: a test moves
 * time by hand.
 */
export class Progress {
  private phase: Phase | undefined;
  private readonly notices = new Map<string, Notice>();
  private lastDrawMs = Number.NEGATIVE_INFINITY;
  private drawn = false;
  /** Between a phase's start and done(): only then is anything drawn (a late notice never lands on the summary). */
  private active = false;
  private stopTicking: (() => void) | undefined;

  constructor(
    private readonly stream: ProgressStream,
    private readonly now: () => number = Date.now,
    private readonly ticker: Ticker = intervalTicker,
  ) {}

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  /** Starts a phase: its clock, rate and counts start from zero. */
  begin(start: PhaseStart): void {
    const nowMs = this.now();
    this.phase = {
      ...start,
      startedMs: nowMs,
      done: 0,
      share: undefined,
      rate: new RateWindow(),
      shareRate: new RateWindow(),
      counts: new Map(),
    };
    this.phase.rate.add(nowMs, 0);
    this.phase.shareRate.add(nowMs, 0);
    this.notices.clear();
    this.active = true;
    this.draw(true);
  }

  /** `done` of the phase so far; `share` (0 to 1) of the input read, when the reader can tell. */
  update(done: number, share?: number): void {
    const phase = this.phase;
    if (phase === undefined) return;
    this.active = true;
    const nowMs = this.now();
    phase.done = done;
    phase.rate.add(nowMs, done);
    if (share !== undefined) {
      phase.share = Math.min(1, Math.max(0, share));
      phase.shareRate.add(nowMs, Math.round(phase.share * shareScale));
    }
    // The last state is always drawn, so the line never stops short of 100%.
    this.draw(phase.total !== undefined && done >= phase.total);
  }

  /** Adds to the running count of `outcome` (0 puts it in its place in the order shown). */
  count(outcome: string, n = 1): void {
    const counts = this.phase?.counts;
    counts?.set(outcome, (counts.get(outcome) ?? 0) + n);
  }

  /**
   * What the job is waiting on, under `key` (one notice per key; undefined text removes it).
   * `untilMs`: shown until then; `countdown`: the time left in place of `{left}`, e.g.
   * `paused {left} (429 Retry-After)` shows `paused 12s (429 Retry-After)`.
   */
  notice(key: string, text: string | undefined, options: { untilMs?: number; countdown?: boolean } = {}): void {
    if (text === undefined) this.notices.delete(key);
    else this.notices.set(key, { text, ...options });
    this.draw(false);
  }

  /** Staging: `what` names the things read (rows; migrate-v1's v1 cases). */
  staged(count: number, what = 'rows', share?: number): void {
    if (this.phase?.label !== 'staging' || this.phase.unit !== what) this.begin({ label: 'staging', unit: what });
    this.update(count, share);
  }

  /** Sending: `done` claims of `total`. */
  claims(done: number, total: number): void {
    if (this.phase?.label !== 'sending' || this.phase.total !== total)
      this.begin({ label: 'sending', unit: 'claims', total });
    this.update(done);
  }

  /** Writes something else on stderr (a log line): the progress line is cleared first and drawn again after. */
  interrupt(write: () => void): void {
    const wasDrawn = this.drawn;
    this.clear();
    write();
    if (wasDrawn) this.draw(true);
  }

  /** Clears the line, so the summary starts on a clean one; it is drawn again at the next update. */
  done(): void {
    this.active = false;
    this.clear();
    this.stopTicking?.();
    this.stopTicking = undefined;
  }

  /** What the line shows now (undefined outside a phase). */
  view(): ProgressView | undefined {
    const phase = this.phase;
    if (phase === undefined) return undefined;
    const nowMs = this.now();
    const perSecond = phase.rate.perSecond(nowMs);
    let eta: number | undefined;
    if (phase.total !== undefined) eta = etaMs(phase.total - phase.done, perSecond);
    else if (phase.share !== undefined) eta = etaMs(shareScale * (1 - phase.share), phase.shareRate.perSecond(nowMs));
    return {
      label: phase.label,
      unit: phase.unit,
      done: phase.done,
      total: phase.total,
      share: phase.share,
      perSecond,
      elapsedMs: nowMs - phase.startedMs,
      etaMs: eta,
      counts: [...phase.counts],
      notices: this.noticesAt(nowMs),
    };
  }

  private noticesAt(nowMs: number): string[] {
    const shown: string[] = [];
    for (const [key, notice] of this.notices) {
      if (notice.untilMs !== undefined && nowMs >= notice.untilMs) {
        this.notices.delete(key);
        continue;
      }
      shown.push(
        notice.countdown === true && notice.untilMs !== undefined
          ? notice.text.replace('{left}', formatDuration(notice.untilMs - nowMs))
          : notice.text,
      );
    }
    return shown;
  }

  private clear(): void {
    if (this.enabled && this.drawn) this.stream.write('\r\u001b[2K');
    this.drawn = false;
  }

  private draw(force: boolean): void {
    if (!this.enabled || !this.active) return;
    const nowMs = this.now();
    if (!force && nowMs - this.lastDrawMs < 100) return;
    const view = this.view();
    if (view === undefined) return;
    this.lastDrawMs = nowMs;
    this.drawn = true;
    this.stream.write(`\r\u001b[2K${progressLine(view, this.stream.columns || 80)}`);
    this.stopTicking ??= this.ticker(1000, () => {
      this.draw(false);
    });
  }
}
