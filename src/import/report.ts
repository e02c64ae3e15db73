import type { ControlMismatch } from '../csv/control-tally.js';
import type { LinesOutside } from '../csv/report-region.js';
import type { ResultsSummary } from '../job-files/import/write-results.js';
import type { PhaseTime } from '../progress/phases.js';
import type { ImportMode } from './plan.js';
import type { ThrottlingSummary } from '../rate/follow-throttling.js';

/** What an import did, for its summary, its exit code and its metrics. */
export interface ImportReport {
  /** The plan's mode (plan.ts): `check` for a dry run. */
  mode: ImportMode['kind'];
  summary: ResultsSummary;
  /** Claims in the journal (this shard's), whatever their outcome. */
  claims: number;
  /** Those claims by their rows' outcome (`pending`: not yet sent). */
  claimsByOutcome?: Record<string, number>;
  resultsFile: string;
  /** Set when the run stopped early (service down, key refused, signal): run it again to continue. */
  abortedBecause: string | undefined;
  /** What stopped the run, when it is an error (a refused key, a failing disk): the caller rethrows it. */
  fatal?: unknown;
  /** How often the service throttled, and where the claims in flight settled; absent in a dry run. */
  throttling?: ThrottlingSummary | undefined;
  /** How long staging, sending and writing the results took; staging is absent when resumed. */
  phases?: PhaseTime[] | undefined;
  /**
   * Set when the run resumed a journal with nothing left to send: every row was settled by an
   * earlier run, which started at `settledByRunAt` (ISO 8601; absent in a journal of an earlier version).
   */
  nothingToSend?: { settledByRunAt: string | undefined } | undefined;
  /** Set when the journal was thinned by prune: one sentence saying so, and that the cells were read again from the input. */
  cellsReadAgain?: string | undefined;
  /** Under the mapping's `report` layout: the input's lines that were not rows, and why (recorded at staging). */
  linesOutside?: LinesOutside | undefined;
  /** Trailers that disagreed with their blocks, imported all the same (`acceptTrailerMismatch`). */
  trailerMismatches?: readonly ControlMismatch[] | undefined;
}
