import { formatPhases, type PhaseTime } from '../../progress/phases.js';
import type { ThrottlingSummary } from '../../rate/follow-throttling.js';
import { formatThrottling, throttlingWorthTelling } from '../../rate/throttling-summary.js';
import type { CliIo } from '../context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';

/**
 * The lines a job's summary ends with: how the service paced it (only when the service throttled
 * or `--max-rps` paced it), how long each phase took, then the files written.
 */
export function writeSummaryTail(
  io: CliIo,
  report: { throttling: ThrottlingSummary; phases: PhaseTime[] },
  files = '',
): void {
  if (throttlingWorthTelling(report.throttling)) io.stderr.write(`${formatThrottling(report.throttling).join('\n')}\n`);
  io.stderr.write(`${formatPhases(report.phases)}\n`);
  io.stderr.write(files);
}

/** How a job ended, as its exit code reads it. */
export interface JobEnding {
  /** A refused key or a failing disk: rethrown, and the funnel in main.ts gives it its words and exit code. */
  fatal?: unknown;
  /** Stopped early (the breaker, a signal): exit 3, resumable. */
  abortedBecause?: string | undefined;
  /** A person said no: nothing was sent (exit 2). */
  declined?: boolean;
}

/**
 * The exit code of a job that ran (docs/exit-codes.md): 0 when every row is ok, 1 when some are
 * not, 3 stopped early, its fatal error rethrown. `io` given, a stop is said on stderr.
 */
export function jobExitCode(ending: JobEnding, allOk: boolean, io?: CliIo): ExitCodeValue {
  if (ending.fatal !== undefined) throw ending.fatal as Error;
  if (ending.declined === true) {
    io?.stderr.write('not confirmed: nothing was sent\n');
    return ExitCode.usage;
  }
  if (ending.abortedBecause !== undefined) {
    io?.stderr.write(`stopped early (${ending.abortedBecause}): run the same command again to continue\n`);
    return ExitCode.aborted;
  }
  return allOk ? ExitCode.ok : ExitCode.someRowsNotOk;
}
