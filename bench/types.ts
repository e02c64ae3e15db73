/**
 * The benchmark suite's one contract: each case measures a figure and, in the same run
 * and on the same machine, the baseline it is compared with. Ratios, not absolute times: these
 * machines are noisy, and a ratio survives the noise that moves both numbers together.
 */
export interface BenchRow {
  /** The table's first column, e.g. "Stage throughput (200,000 rows)". */
  readonly benchmark: string;
  /** What was measured, with its unit, e.g. "41,200 rows/s". */
  readonly figure: string;
  /** The baseline, with its unit, e.g. "csv-parse alone: 310,000 rows/s". */
  readonly baseline: string;
  /** figure / baseline (or baseline / figure where smaller is better: say which in `goal`). */
  readonly ratio: number;
  /** The case's goal in words, e.g. ">= 0.5"; absent when the case sets none. */
  readonly goal?: string;
  /** Whether the goal was met; absent when there is no goal. */
  readonly met?: boolean;
  /** Anything a reader needs to trust the row (sizes, extra figures such as p50/p99). */
  readonly note?: string;
}

export interface BenchContext {
  /** A scratch directory for this run, removed afterwards. */
  readonly workDir: string;
  /** The built CLI (`dist/cli/bin.js`), for cases that run it as a process. */
  readonly cliBin: string;
  /**
   * The CLI whose sandbox the cases send to: this checkout's build, even when `--cli` measures
   * another (the service is the apparatus; the sandbox case, whose subject it is, uses `cliBin`).
   */
  readonly sandboxCliBin: string;
  /** `--quick`: smaller sizes, for a smoke run of the suite itself (not for BENCHMARKS.md). */
  readonly quick: boolean;
  /** Progress for the person waiting (stderr); the table itself is printed by the runner. */
  log(message: string): void;
}

/** One module under bench/cases/: `export const benchCase: BenchCase`. */
export interface BenchCase {
  readonly name: string;
  run(context: BenchContext): Promise<BenchRow[]>;
}
