import type { LevelWithSilent, Logger } from 'pino';
import { createLogger } from '../logging/logger.js';
import { prettyLogLine } from '../logging/pretty.js';
import type { Progress } from '../progress/progress.js';
import type { CliIo } from './context.js';
import { describeFailure, exitCodeFor } from './exit-codes.js';
import { codeOf } from '../errors/coded-error.js';
import { maskCardNumbers } from '../card-numbers/mask.js';

export const logFormats = ['json', 'pretty'] as const;
export type LogFormat = (typeof logFormats)[number];

/** The logger of a run, and how its failure is told. */
export interface LogOutput {
  logger: Logger;
  format: LogFormat;
  /** A run's failure, once: one sentence for a person, one JSON record for a program. */
  fatal(error: unknown): void;
}

/**
 * Decided per stream, as the GitHub CLI's iostreams do (a terminal for people, a pipe for
 * programs): human lines when stderr is a terminal, JSON lines otherwise (cron, Kubernetes, a log
 * shipper), unless `--log-format` chooses.
 */
export function chooseLogFormat(chosen: LogFormat | undefined, stderr: { isTTY?: boolean }): LogFormat {
  return chosen ?? (stderr.isTTY === true ? 'pretty' : 'json');
}

/** Colour only on a terminal, and not when NO_COLOR is set (no-color.org) or the terminal is dumb. */
export function colourOn(stderr: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stderr.isTTY === true && env.TERM !== 'dumb';
}

export function logOutput(options: {
  level: LevelWithSilent;
  format: LogFormat | undefined;
  io: CliIo;
  progress: Progress;
}): LogOutput {
  const { io, progress } = options;
  const format = chooseLogFormat(options.format, io.stderr);
  const pretty = format === 'pretty' ? prettyLogLine({ colorize: colourOn(io.stderr, io.env) }) : undefined;
  // A log line on a terminal first clears the progress line, so it never starts mid-line; the
  // progress line is drawn again below it.
  const write = (line: string) => {
    progress.interrupt(() => io.stderr.write(pretty === undefined ? line : pretty(line)));
  };
  const logger = createLogger({ level: options.level, destination: { write } });
  return {
    logger,
    format,
    fatal(error) {
      // A known failure is its code and message; only the unforeseen deserve a stack.
      const code = codeOf(error);
      if (format === 'pretty') {
        if (code === undefined) logger.debug({ err: error }, 'the failure below, with its stack');
        // Written straight to the terminal, not through the logger: masked here as the logger masks its lines.
        const sentence = maskCardNumbers(describeFailure(error));
        progress.interrupt(() => io.stderr.write(`bulk-disputes: ${sentence}\n`));
        return;
      }
      // Written whatever --log-level says: it is the run's answer, not a log line.
      const fields = code === undefined ? { err: error } : { code };
      createLogger({ level: 'error', destination: { write } }).error(
        { ...fields, exitCode: exitCodeFor(error) },
        describeFailure(error),
      );
    },
  };
}
