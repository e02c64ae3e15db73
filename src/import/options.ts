import type { ControlMismatch } from '../csv/control-tally.js';
import type { LinesOutside } from '../csv/report-region.js';
import type { ServiceTarget } from '../api/service-target.js';
import type { EvidenceDirSetBy } from '../evidence/index.js';
import type { Shard } from '../job-files/claims/ids.js';
import type { ResultsSummary } from '../job-files/import/write-results.js';
import type { Mapping } from '../mapping/schema.js';
import type { PhaseTime } from '../progress/phases.js';
import type { Progress } from '../progress/progress.js';
import type { ThrottlingSummary } from '../rate/follow-throttling.js';
import type { SendingOptions } from '../rate/sender.js';

/** What an import is asked to do, and what it reports: shared by the run and its sending. */

export interface ImportOptions extends SendingOptions {
  input: string;
  /** A workbook input's sheet (default: its first). */
  sheet?: string | undefined;
  mappingFile: string;
  resultsFile: string;
  /** The job's journal; a dry run without one uses a temporary journal, removed at the end. */
  journalFile: string | undefined;
  evidenceDir: string;
  /** Whether `--evidence-dir` named `evidenceDir` or it is the default, the export's folder: evidence messages say which. */
  evidenceDirSetBy?: EvidenceDirSetBy | undefined;
  /** `--id-prefix`: replaces the mapping's `claim.id_prefix` for this job (a new id generation after a withdrawal). */
  idPrefix?: string | undefined;
  /** Overrides the mapping's `file_mode`. */
  fileMode?: Mapping['file_mode'] | undefined;
  dryRun: boolean;
  /**
   * A dry run's clock for the filing rules: the time the real run would file at (the CLI gives the
   * embedded sandbox's `--sandbox-clock`, running on). Absent: now.
   */
  filingClock?: (() => number) | undefined;
  payloadsFile?: string | undefined;
  shard?: Shard | undefined;
  /** Start a journal made for another input, mapping or flags over. */
  restart: boolean;
  /**
   * Import a file whose trailers disagree with what it holds (docs/mappings.md, "Fixed-width files
   * and control records"): its blocks' rows are warned, instead of the run refused.
   */
  acceptTrailerMismatch?: boolean | undefined;
  /**
   * Where to send; absent in a dry run. `identity` names it in the journal, which then belongs to
   * it; by default the base URL and the key's environment (the CLI passes the embedded sandbox's
   * data file).
   */
  service: ServiceTarget | undefined;
  progress?: Progress | undefined;
  /**
   * Called once the journal holds every row, staged now or by an earlier run, before anything is
   * sent: the CLI lets V8's young generation grow from here (heap-tuning.ts says why).
   */
  onStaged?: (() => void) | undefined;
}

export interface ImportReport {
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
  /** Under the mapping's `report` layout: the input's lines that were not rows, and why (recorded at staging). */
  linesOutside?: LinesOutside | undefined;
  /** Trailers that disagreed with their blocks, imported all the same (`acceptTrailerMismatch`). */
  trailerMismatches?: readonly ControlMismatch[] | undefined;
}
