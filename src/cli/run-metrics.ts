import { CommanderError, type Command } from 'commander';
import { sendMetrics } from '../metrics/send.js';
import type { CliContext } from './context.js';
import type { ExitCodeValue } from './exit-codes.js';
import { keyEnvironment, resolveMetricsSettings, takesMetrics } from './metrics-settings.js';

/**
 * The funnel's last step (main.ts), once the exit code is final: a job command's metrics written
 * and pushed, awaited, before the process ends (docs/monitoring.md). One place for every job and
 * every ending: a usage error before the command ran (its metrics flags read as far as commander
 * got), a refused key, a stop, a finished run. Help and --version send nothing.
 */
export async function sendRunMetrics(
  context: CliContext,
  command: Command | undefined,
  exitCode: ExitCodeValue,
  error?: unknown,
): Promise<void> {
  if (command === undefined || !takesMetrics(command)) return;
  if (
    error instanceof CommanderError &&
    (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')
  )
    return;
  const { env } = context.io;
  // Unset: the run stopped before its command ran; bad metrics flags then send nothing.
  const settings = context.metrics.settings ?? (await resolveMetricsSettings(command, env).catch(() => undefined));
  if (settings === undefined) return;
  const outcome = {
    ...context.metrics.figures,
    job: settings.job,
    shard: settings.shard,
    environment: await keyEnvironment(command, env),
    exitCode,
    endedAt: new Date(),
  };
  await sendMetrics(settings, outcome, (line, fields) => {
    context.logger.warn(fields, line);
    // A human log line on a terminal already says it (as service-target.ts does).
    if (context.logFormat !== 'pretty') context.io.stderr.write(`${line}\n`);
  });
}

/** The command the line names, as main.ts's `commandsFor` finds it: the first word naming one. */
export function commandNamed(program: Command, argv: readonly string[]): Command | undefined {
  const name = argv.find((word) => program.commands.some((command) => command.name() === word));
  return program.commands.find((command) => command.name() === name);
}
