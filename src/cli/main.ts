import { createRequire } from 'node:module';
import { Command, CommanderError, Option } from 'commander';
import type { LevelWithSilent } from 'pino';
import { checkCommand } from './commands/check.js';
import { exportCommand } from './commands/export.js';
import { importCommand } from './commands/import.js';
import { mappingCommand } from './commands/mapping.js';
import { mergeResultsCommand } from './commands/merge-results.js';
import { migrateV1Command } from './commands/migrate-v1.js';
import { reportCommand } from './commands/report.js';
import { reviewCommand } from './commands/review.js';
import { sandboxCommand } from './commands/sandbox.js';
import { withdrawCommand } from './commands/withdraw.js';
import type { CliContext, CliIo } from './context.js';
import { ExitCode, exitCodeFor, OutputClosedError, type ExitCodeValue } from './exit-codes.js';
import { logFormats, logOutput, type LogFormat } from './log-output.js';
import { Progress } from '../progress/progress.js';
import { letYoungGenerationGrow, limitHeapGrowth } from './heap-tuning.js';
import { reportUnknownOptionsFirst } from './option-order.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

const helpFooter = `
Environment:
  CLAIMS_BASE_URL   the service's base address (or --base-url)
  CLAIMS_API_KEY    the API key; test_... keys select the sandbox environment
                    (or --api-key-file FILE; never a key as a flag value)
  CLAIMS_MAX_RPS    import, migrate-v1, export: requests per second for the whole job
                    (or --max-rps N; default no limit)

Exit codes:
  0  every row ok
  1  finished, some rows not ok (see the results CSV)
  2  usage, configuration or mapping error: nothing was sent
  3  aborted (authentication refused, service unavailable, disk): run the same command again
`;

/**
 * The whole CLI as a function: arguments and streams in, exit code out. The bin is a two-line
 * wrapper; tests call this in-process (style.md, "a tiny bin; main(argv, io) injectable").
 */
export async function main(argv: string[], io: CliIo): Promise<ExitCodeValue> {
  let exitCode: ExitCodeValue = ExitCode.ok;
  const program = new Command('bulk-disputes')
    .description('Move card disputes in bulk to and from the Issuer Chargeback Claims Service.')
    .version(version)
    .addOption(new Option('--log-level <level>', 'log level on stderr').choices(['trace', 'debug', 'info', 'warn', 'error', 'silent']).default('info'))
    .addOption(new Option('--log-format <format>', 'log lines on stderr: pretty for people, json for programs (default: pretty on a terminal, json otherwise)').choices(logFormats))
    .addHelpText('after', helpFooter)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .exitOverride();

  const progress = new Progress(io.stderr);
  // Replaced once the global options are parsed, before any command runs.
  let output = logOutput({ level: 'silent', format: undefined, io, progress });
  const context: CliContext = {
    io,
    logger: output.logger,
    progress,
    setExitCode: (code) => {
      exitCode = code;
    },
  };
  program.hook('preAction', (command, actionCommand) => {
    const { logLevel, logFormat } = command.optsWithGlobals<{ logLevel: LevelWithSilent; logFormat?: LogFormat }>();
    // Human lines on a terminal, JSON otherwise, or as --log-format says (log-output.ts).
    output = logOutput({ level: logLevel, format: logFormat, io, progress });
    context.logger = output.logger;
    context.logFormat = output.format;
    // The job commands only: the sandbox keeps V8's default (heap-tuning.ts says why).
    if (actionCommand.name() !== 'sandbox') limitHeapGrowth();
    else letYoungGenerationGrow();
  });
  for (const command of [importCommand(context), exportCommand(context), migrateV1Command(context), checkCommand(context), sandboxCommand(context), mappingCommand(context), reportCommand(context), mergeResultsCommand(context), reviewCommand(context), withdrawCommand(context)]) {
    program.addCommand(command.exitOverride().configureOutput(program.configureOutput()));
  }
  // A misspelt option is named, with a suggestion, before a required one is missed (issue 29).
  reportUnknownOptionsFirst(program);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    // The reader of stdout has gone (`| head -1`): nothing to tell, the outcome so far stands.
    if (error instanceof OutputClosedError) return exitCode;
    // Commander has already printed its own usage errors and help.
    // Told once: a sentence on a terminal, a JSON record otherwise (issue 29).
    if (!(error instanceof CommanderError)) output.fatal(error);
    return exitCodeFor(error);
  }
}
