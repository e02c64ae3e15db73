import { formatDuration } from './duration.js';

/** How long one phase of a job took (staging, sending, results), for the summary. */
export interface PhaseTime {
  phase: string;
  ms: number;
  /** Of `ms`, the time it ran alongside the phase before it (an import sends while it stages). */
  overlapMs?: number;
}

/**
 * Times a job's phases: `next('sending')` ends the phases running and starts the next;
 * `alongside('sending')` starts one while the one running goes on, until `stop('staging')`. The
 * clock is passed in, like every edge of a pure core: a test gives its own.
 */
export class PhaseTimer {
  private readonly spans: { phase: string; startedMs: number; endedMs: number | undefined }[] = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  next(phase: string): void {
    this.stopAll();
    this.spans.push({ phase, startedMs: this.now(), endedMs: undefined });
  }

  /** Starts `phase`; the phase running goes on until it is stopped. */
  alongside(phase: string): void {
    this.spans.push({ phase, startedMs: this.now(), endedMs: undefined });
  }

  /** Ends `phase`, if it is running. */
  stop(phase: string): void {
    const span = this.spans.find((running) => running.phase === phase && running.endedMs === undefined);
    if (span !== undefined) span.endedMs = this.now();
  }

  /** Names the phase started last, once it is known what it was (a resumed import's first phase). */
  rename(phase: string): void {
    const last = this.spans.at(-1);
    if (last !== undefined && last.endedMs === undefined) last.phase = phase;
  }

  /** Ends the phases running, if any; what was timed so far. */
  end(): PhaseTime[] {
    this.stopAll();
    return this.spans.map((span, place) => {
      const endedMs = span.endedMs ?? span.startedMs;
      const before = this.spans[place - 1];
      const overlapMs =
        before === undefined ? 0 : Math.max(0, Math.min(before.endedMs ?? endedMs, endedMs) - span.startedMs);
      return { phase: span.phase, ms: endedMs - span.startedMs, ...(overlapMs > 0 ? { overlapMs } : {}) };
    });
  }

  private stopAll(): void {
    const nowMs = this.now();
    for (const span of this.spans) span.endedMs ??= nowMs;
  }
}

/** The summary's line, e.g. `took 1m03s: staging 2.1s, sending 59.8s, results 1.1s`. */
export function formatPhases(times: readonly PhaseTime[]): string {
  const totalMs = times.reduce((sum, time) => sum + time.ms - (time.overlapMs ?? 0), 0);
  if (times.length === 1) return `took ${formatDuration(totalMs)}`;
  return `took ${formatDuration(totalMs)}: ${times.map((time, place) => phaseText(time, times[place - 1])).join(', ')}`;
}

/** `sending 40s`, or `sending 40s (0.4s of it while staging)`. */
function phaseText(time: PhaseTime, before: PhaseTime | undefined): string {
  const text = `${time.phase} ${formatDuration(time.ms)}`;
  if (time.overlapMs === undefined || before === undefined) return text;
  return `${text} (${formatDuration(time.overlapMs)} of it while ${before.phase})`;
}
