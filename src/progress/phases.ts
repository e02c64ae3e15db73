import { formatDuration } from './duration.js';

/** How long one phase of a job took (staging, sending, results), for the summary. */
export interface PhaseTime {
  phase: string;
  ms: number;
}

/**
 * Times a job's phases one after the other: `next('sending')` ends the phase before it. The clock
 * is passed in, like every edge of a pure core: a test gives its own.
 */
export class PhaseTimer {
  private readonly times: PhaseTime[] = [];
  private current: { phase: string; startedMs: number } | undefined;

  constructor(private readonly now: () => number = () => performance.now()) {}

  next(phase: string): void {
    this.end();
    this.current = { phase, startedMs: this.now() };
  }

  /** Names the phase running otherwise, once it is known what it was (a resumed import's first phase). */
  rename(phase: string): void {
    if (this.current !== undefined) this.current.phase = phase;
  }

  /** Ends the phase running, if any; what was timed so far. */
  end(): PhaseTime[] {
    if (this.current !== undefined)
      this.times.push({ phase: this.current.phase, ms: this.now() - this.current.startedMs });
    this.current = undefined;
    return [...this.times];
  }
}

/** The summary's line, e.g. `took 1m03s: staging 2.1s, sending 59.8s, results 1.1s`. */
export function formatPhases(times: readonly PhaseTime[]): string {
  const totalMs = times.reduce((sum, time) => sum + time.ms, 0);
  if (times.length === 1) return `took ${formatDuration(totalMs)}`;
  return `took ${formatDuration(totalMs)}: ${times.map((time) => `${time.phase} ${formatDuration(time.ms)}`).join(', ')}`;
}
