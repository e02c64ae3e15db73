import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import type { LevelWithSilent } from 'pino';
import type { CliContext, CliIo } from './context.js';
import { exitCodeHelp } from './exit-code-help.js';
import { ExitCode, exitCodeFor, OutputClosedError, type ExitCodeValue } from './exit-codes.js';
import { logFormats, logOutput, type LogFormat } from './log-output.js';
import { Progress } from '../progress/progress.js';
import { letYoungGenerationGrow, limitHeapGrowth } from './heap-tuning.js';
import { reportUnknownOptionsFirst } from './option-order.js';
import { RunRecorder } from '../metrics/recorder.js';
import { resolveMetricsSettings, takesMetrics } from './metrics-settings.js';
import { commandNamed, sendRunMetrics } from './run-metrics.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };
/** Where the package is, installed or checked out: its mappings, samples and docs are named from here. */
const packageRoot = fileURLToPath(new URL('../../', import.meta.url)).replace(/[\\/]$/, '');

const helpFooter = `
Environment:
  CLAIMS_BASE_URL   the service's base address (or --base-url)
  CLAIMS_REQUIRE_SERVICE=1   no service address is an error (exit 2), not the embedded
                    sandbox: for scheduled jobs (or --require-service)
  CLAIMS_API_KEY    the API key; test_... keys select the sandbox environment
                    (or --api-key-file FILE; never a key as a flag value)
  CLAIMS_MAX_RPS    import, migrate-v1, export: requests per second for the whole job
                    (or --max-rps N; default no limit)
  CLAIMS_METRICS_PUSH_URL   the job commands: the Pushgateway for the run's metrics
                    (or --metrics-push URL); its Basic credentials in the URL or in
                    CLAIMS_METRICS_PUSH_USER and CLAIMS_METRICS_PUSH_PASSWORD

${exitCodeHelp()}

Shipped with it (${packageRoot}):
  mappings/   sample mappings (generic.yaml, …) and mapping.schema.json for an editor
  samples/    a sample export with its evidence: bulk-disputes import ${join(packageRoot, 'samples', 'generic-export.csv')} \\
                --mapping ${join(packageRoot, 'mappings', 'generic.yaml')} --evidence-dir ${join(packageRoot, 'samples', 'evidence')}
  docs/       the documentation, one page per command (docs/README.md)
`;

/**
 * The whole CLI as a function: arguments and streams in, exit code out. The bin is a two-line
 * wrapper, and the streams are injected, so tests call this in-process.
 */
export async function main(argv: string[], io: CliIo): Promise<ExitCodeValue> {
  let exitCode: ExitCodeValue = ExitCode.ok;
  const program = new Command('bulk-disputes')
    .description('Move card disputes in bulk to and from the Issuer Chargeback Claims Service.')
    .version(version)
    .addOption(
      new Option('--log-level <level>', 'log level on stderr')
        .choices(['trace', 'debug', 'info', 'warn', 'error', 'silent'])
        .default('info'),
    )
    .addOption(
      new Option(
        '--log-format <format>',
        'log lines on stderr: pretty for people, json for programs (default: pretty on a terminal, json otherwise)',
      ).choices(logFormats),
    )
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
    metrics: new RunRecorder(),
  };
  program.hook('preAction', async (command, actionCommand) => {
    const { logLevel, logFormat } = command.optsWithGlobals<{ logLevel: LevelWithSilent; logFormat?: LogFormat }>();
    // Human lines on a terminal, JSON otherwise, or as --log-format says (log-output.ts).
    output = logOutput({ level: logLevel, format: logFormat, io, progress });
    context.logger = output.logger;
    context.logFormat = output.format;
    // The job commands only: the sandbox keeps V8's default (heap-tuning.ts says why).
    if (actionCommand.name() !== 'sandbox') limitHeapGrowth();
    else letYoungGenerationGrow();
    // Bad metrics flags stop the run before anything is sent (exit 2).
    if (takesMetrics(actionCommand)) context.metrics.settings = await resolveMetricsSettings(actionCommand, io.env);
  });
  for (const command of await commandsFor(argv, context)) {
    program.addCommand(command.exitOverride().configureOutput(program.configureOutput()));
  }
  // A misspelt option is named, with a suggestion, before a required one is missed.
  reportUnknownOptionsFirst(program);

  const final = async (code: ExitCodeValue, error?: unknown): Promise<ExitCodeValue> => {
    // The exit code is final here: the job's metrics go out (run-metrics.ts), never changing it.
    await sendRunMetrics(context, commandNamed(program, argv), code, error);
    return code;
  };
  try {
    await program.parseAsync(argv, { from: 'user' });
    return await final(exitCode);
  } catch (error) {
    // The reader of stdout has gone (`| head -1`): nothing to tell, the outcome so far stands.
    if (error instanceof OutputClosedError) return final(exitCode);
    // Commander has already printed its own usage errors and help.
    // Told once: a sentence on a terminal, a JSON record otherwise.
    if (!(error instanceof CommanderError)) output.fatal(error);
    return final(exitCodeFor(error), error);
  }
}

/** Each command's module, loaded when it is the one run (or for the whole help), in help order. */
const commandModules = new Map<string, (context: CliContext) => Promise<Command>>([
  ['import', async (context) => (await import('./commands/import.js')).importCommand(context)],
  ['export', async (context) => (await import('./commands/export.js')).exportCommand(context)],
  ['migrate-v1', async (context) => (await import('./commands/migrate-v1.js')).migrateV1Command(context)],
  ['check', async (context) => (await import('./commands/check.js')).checkCommand(context)],
  ['sandbox', async (context) => (await import('./commands/sandbox.js')).sandboxCommand(context)],
  ['mapping', async (context) => (await import('./commands/mapping.js')).mappingCommand(context)],
  ['report', async (context) => (await import('./commands/report.js')).reportCommand(context)],
  ['merge-results', async (context) => (await import('./commands/merge-results.js')).mergeResultsCommand(context)],
  ['review', async (context) => (await import('./commands/review.js')).reviewCommand(context)],
  ['withdraw', async (context) => (await import('./commands/withdraw.js')).withdrawCommand(context)],
  ['track', async (context) => (await import('./commands/track.js')).trackCommand(context)],
  ['prune', async (context) => (await import('./commands/prune.js')).pruneCommand(context)],
]);

/**
 * The command named on the line, alone: the other commands' modules are not loaded (measured: 5 MiB
 * of every job's memory, the resident set after loading them). The first word naming a command is
 * the command (the global options' values never name one); with none (`--help`, `help import`, a
 * misspelt name), every command, for the help and its suggestions.
 */
async function commandsFor(argv: readonly string[], context: CliContext): Promise<Command[]> {
  const named = commandModules.get(argv.find((word) => commandModules.has(word)) ?? '');
  const loaders = named === undefined ? [...commandModules.values()] : [named];
  return Promise.all(loaders.map(async (load) => load(context)));
}
