import type { PhaseTime } from '../progress/phases.js';
import type { PushTarget } from './push.js';
import type { RunFigures } from './run-outcome.js';

/** Where a run's metrics go, from `--metrics-push`, `--metrics-job`, `--metrics-file` (docs/monitoring.md). */
export interface MetricsSettings {
  job: string;
  /** The shard's number (1-based, as `--shard i/n` counts) when the run is one shard of a night. */
  shard?: number | undefined;
  file?: string | undefined;
  push?: PushTarget | undefined;
}

/**
 * What a job command records of its run as it goes; the CLI sends it once the exit code is final
 * (src/cli/main.ts), whatever ended the run. A command records what it has: a run stopped by a
 * usage error before anything ran has only its exit code.
 */
export class RunRecorder {
  /** Set before the command runs, when it is a job command whose metrics go somewhere. */
  settings: MetricsSettings | undefined;
  private recorded: RunFigures = {};

  record(figures: RunFigures): void {
    this.recorded = { ...this.recorded, ...figures };
  }

  get figures(): RunFigures {
    return this.recorded;
  }
}

/** A job's `took` line as the metrics' phases, in seconds. */
export function phasesOf(phases: readonly PhaseTime[] | undefined): RunFigures['phases'] {
  return phases?.map(({ phase, ms }) => ({ phase, seconds: ms / 1000 }));
}

/** Counts by outcome as the metrics' rows, each outcome ok when `ok` says so. */
export function rowsOf(
  byOutcome: Readonly<Partial<Record<string, number>>>,
  ok: (outcome: string) => boolean,
): NonNullable<RunFigures['rows']> {
  return Object.entries(byOutcome).flatMap(([outcome, count]) =>
    count === undefined ? [] : [{ outcome, ok: ok(outcome), count }],
  );
}

/** Counts by outcome as the metrics' claims. */
export function claimsOf(byOutcome: Readonly<Partial<Record<string, number>>>): NonNullable<RunFigures['claims']> {
  return Object.entries(byOutcome).flatMap(([outcome, count]) => (count === undefined ? [] : [{ outcome, count }]));
}
