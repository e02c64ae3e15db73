import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { createSandbox } from '../../sandbox/server.js';
import type { CliContext } from '../context.js';
import { loadRulesFile } from '../../sandbox/rules/workflow-rules.js';
import { ExitCode, UsageError } from '../exit-codes.js';

interface SandboxFlags {
  host: string;
  port: number;
  db: string;
  apiKey: string[];
  control: boolean;
  workflowDelayMs: number;
  rules?: string;
}

/** `bulk-disputes sandbox`: the whole service on this machine, until Ctrl-C or SIGTERM. */
export function sandboxCommand(context: CliContext): Command {
  return new Command('sandbox')
    .description('run a local, stateful implementation of the Claims Service (v2 and v1) until stopped')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', integer('--port', 0, 65_535), 4010)
    .option('--db <file>', 'SQLite file that keeps the data across restarts, or :memory:', 'sandbox.db')
    .option('--api-key <key>', 'accept this key (repeatable); test_... keys reach the sandbox environment, others production', collect, [])
    .option('--control', 'serve the /_sandbox/... control endpoints', false)
    .option('--rules <file>', 'workflow rules (JSON) for file_mode auto and run_workflow; default: file every valid case')
    .option('--workflow-delay-ms <ms>', 'how long run_workflow evaluates before filing', integer('--workflow-delay-ms', 0, 600_000), 200)
    .addHelpText('after', '\nWith no --api-key, a test key is generated and printed. Keys given here show in `ps`: they are sandbox keys, not service keys.\n')
    .action(async (flags: SandboxFlags) => {
      const dbPath = flags.db === ':memory:' ? ':memory:' : resolve(flags.db);
      const rules = flags.rules === undefined ? undefined : await loadRulesFile(flags.rules).catch((error: unknown) => {
        throw new UsageError((error as Error).message, { cause: error });
      });
      const sandbox = await createSandbox({
        rules,
        host: flags.host,
        port: flags.port,
        db: dbPath,
        apiKeys: flags.apiKey,
        control: flags.control,
        workflowDelayMs: flags.workflowDelayMs,
        logger: context.logger,
      });
      const key = sandbox.generatedKey ?? sandbox.apiKeys[0] ?? '';
      const lines = [
        `sandbox listening on ${sandbox.url}`,
        `data: ${dbPath}`,
        sandbox.generatedKey ? `API key (generated, sandbox environment): ${sandbox.generatedKey}` : `API keys: ${sandbox.apiKeys.length} configured`,
        `try: curl -u ${key}: ${sandbox.url}/v2/issuer/claims`,
        'stop with Ctrl-C',
      ];
      context.io.stdout.write(`${lines.join('\n')}\n`);
      context.logger.info({ url: sandbox.url, db: dbPath, control: flags.control }, 'sandbox started');
      await new Promise<void>((stopped) => {
        context.io.onStop?.(() => {
          sandbox.close().then(stopped, (error: unknown) => {
            context.logger.error({ err: error }, 'sandbox did not close cleanly');
            stopped();
          });
        });
      });
      context.logger.info('sandbox stopped');
      context.setExitCode(ExitCode.ok);
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function integer(flag: string, min: number, max: number) {
  return (value: string): number => {
    const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!(parsed >= min && parsed <= max)) throw new InvalidArgumentError(`${flag}: expected a whole number from ${min} to ${max}, got ${value}`);
    return parsed;
  };
}
