import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { CliContext } from '../context.js';
import { writeNotice } from '../output.js';
import { faultConfigFromFlags, faultFlagHelp, type FaultConfig, type FaultFlags } from '../../sandbox/faults/config.js';
import type { FaultInjector } from '../../sandbox/faults/fault-injector.js';
import type { Sandbox, SandboxOptions } from '../../sandbox/server.js';
import { loadRulesFile } from '../../sandbox/rules/workflow-rules.js';
import { defaultRetryScheduleMs, parseRetrySchedule, WebhookConfigError } from '../../sandbox/webhooks/schedule.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { collect, integer } from '../flags.js';
import { codeOf } from '../../errors/coded-error.js';

/** `--tls-cert`, `--tls-key`, `--client-ca` read: HTTPS, and mutual TLS with a client CA. */
async function sandboxTls(
  flags: SandboxFlags,
): Promise<{ cert: Buffer; key: Buffer; clientCa?: Buffer | undefined } | undefined> {
  if (flags.tlsCert === undefined && flags.tlsKey === undefined) {
    if (flags.clientCa !== undefined)
      throw new UsageError('--client-ca: expected HTTPS too (--tls-cert and --tls-key), got plain HTTP');
    return undefined;
  }
  if (flags.tlsCert === undefined || flags.tlsKey === undefined)
    throw new UsageError('--tls-cert and --tls-key: expected both, got one');
  const read = async (file: string, flag: string) =>
    readFile(file).catch((error: unknown) => {
      throw new UsageError(`${flag} ${file}: expected a readable PEM file, got ${codeOf(error) ?? 'unreadable'}`, {
        cause: error,
      });
    });
  return {
    cert: await read(flags.tlsCert, '--tls-cert'),
    key: await read(flags.tlsKey, '--tls-key'),
    clientCa: flags.clientCa === undefined ? undefined : await read(flags.clientCa, '--client-ca'),
  };
}

interface SandboxFlags extends FaultFlags {
  tlsCert?: string;
  tlsKey?: string;
  clientCa?: string;
  host: string;
  port: number;
  db: string;
  apiKey: string[];
  control: boolean;
  outcomes: boolean;
  workflowDelayMs: number;
  rules?: string;
  webhookUrl: string[];
  webhookSecret?: string;
  webhookRetrySchedule: number[];
}

/** The sandbox's options as the flags give them; `db` always set, for the lines that say where the data is. */
type SandboxSettings = SandboxOptions & { db: string };

/** `bulk-disputes sandbox`: the whole service on this machine, until Ctrl-C or SIGTERM. */
export function sandboxCommand(context: CliContext): Command {
  return addSandboxOptions(new Command('sandbox')).action(async (flags: SandboxFlags) => {
    const settings = await sandboxSettings(flags, context);
    const sandbox = await createSandboxFrom(settings);
    reportStarted(context, flags, settings, sandbox);
    await untilStopped(context, sandbox);
    context.logger.info('sandbox stopped');
    context.setExitCode(ExitCode.ok);
  });
}

/** The sandbox's flags, its fault flags last. */
function addSandboxOptions(command: Command): Command {
  command
    .description('run a local, stateful implementation of the Claims Service (v2 and v1) until stopped')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', integer('--port', 0, 65_535), 4010)
    .option('--db <file>', 'SQLite file that keeps the data across restarts, or :memory:', 'sandbox.db')
    .option(
      '--api-key <key>',
      'accept this key (repeatable); test_... keys reach the sandbox environment, others production',
      collect,
      [],
    )
    .option('--control', 'serve the /_sandbox/... control endpoints', false)
    .option(
      '--outcomes',
      'play the card networks: each filed case moves on along a path drawn from --seed and its id, as the sandbox clock passes its moves',
      false,
    )
    .option('--tls-cert <pem>', 'serve HTTPS with this certificate (with --tls-key)')
    .option('--tls-key <pem>', "the HTTPS certificate's private key")
    .option('--client-ca <pem>', 'with HTTPS: require client certificates issued by this CA (mutual TLS)')
    .option(
      '--rules <file>',
      'workflow rules (JSON) for file_mode auto and run_workflow; default: file every valid case',
    )
    .option('--webhook-url <url>', 'POST each event here as signed JSON (repeatable)', collect, [])
    .option(
      '--webhook-secret <secret>',
      'HMAC-SHA256 key for the bulk-disputes-signature header (default: generated and printed)',
    )
    .addOption(
      new Option('--webhook-retry-schedule <waits>', 'waits before each retry, e.g. 1s,5s,30s, or none')
        .argParser(retrySchedule)
        .default([...defaultRetryScheduleMs], '1s,2s,5s,10s,30s,60s'),
    )
    .option(
      '--workflow-delay-ms <ms>',
      'how long run_workflow evaluates before filing',
      integer('--workflow-delay-ms', 0, 600_000),
      200,
    )
    .addHelpText(
      'after',
      '\nWith no --api-key, a test key is generated and printed. Keys given here show in `ps`: they are sandbox keys, not service keys.\n',
    );
  // Fault injection: seeded, so a failing run can be replayed; also settable at run time
  // through POST /_sandbox/faults with --control.
  for (const { flags, description } of faultFlagHelp) {
    if (flags.startsWith('--fault-route'))
      command.option(flags, description, (value: string, previous?: string[]) => [...(previous ?? []), value]);
    else command.option(flags, description);
  }
  return command;
}

/** The flags read and checked into the sandbox's options: each one that cannot work is a usage error, before anything starts. */
async function sandboxSettings(flags: SandboxFlags, context: CliContext): Promise<SandboxSettings> {
  // The sandbox's code is loaded when it runs, not by every command of the CLI.
  const [{ createFaultInjector }, { routes }] = await Promise.all([
    import('../../sandbox/faults/seeded-faults.js'),
    import('../../sandbox/route-table.js'),
  ]);
  const rules =
    flags.rules === undefined
      ? undefined
      : await loadRulesFile(flags.rules).catch((error: unknown) => {
          throw new UsageError((error as Error).message, { cause: error });
        });
  const webhooks =
    flags.webhookUrl.length === 0
      ? undefined
      : {
          urls: flags.webhookUrl,
          secret: flags.webhookSecret,
          retryScheduleMs: flags.webhookRetrySchedule,
          onError: (error: unknown) => {
            context.logger.error({ err: error }, 'webhook delivery failed');
          },
        };
  return {
    rules,
    outcomes: flags.outcomes ? { seed: outcomeSeed(flags) } : undefined,
    webhooks,
    faults: faultInjectorFrom(flags, (config) => createFaultInjector(config), routes),
    host: flags.host,
    port: flags.port,
    db: flags.db === ':memory:' ? ':memory:' : resolve(flags.db),
    apiKeys: flags.apiKey,
    control: flags.control,
    workflowDelayMs: flags.workflowDelayMs,
    logger: context.logger,
    tls: await sandboxTls(flags),
  };
}

async function createSandboxFrom(settings: SandboxOptions): Promise<Sandbox> {
  const { createSandbox } = await import('../../sandbox/server.js');
  return createSandbox(settings).catch((error: unknown) => {
    // A webhook URL or schedule that cannot work is a usage error: nothing was started.
    throw error instanceof WebhookConfigError ? new UsageError(error.message, { cause: error }) : error;
  });
}

/** Where it listens, with which key, and what else is on: printed once, then logged. */
function reportStarted(context: CliContext, flags: SandboxFlags, settings: SandboxSettings, sandbox: Sandbox): void {
  const key = sandbox.generatedKey ?? sandbox.apiKeys[0] ?? '';
  const lines = [
    `sandbox listening on ${sandbox.url}`,
    `data: ${settings.db}`,
    sandbox.generatedKey
      ? `API key (generated, sandbox environment): ${sandbox.generatedKey}`
      : `API keys: ${sandbox.apiKeys.length} configured`,
    ...(flags.outcomes
      ? [`outcomes: filed cases move on along seeded paths as the sandbox clock passes (seed ${outcomeSeed(flags)})`]
      : []),
    ...(settings.webhooks
      ? [
          `webhooks: ${settings.webhooks.urls.join(', ')}${flags.webhookSecret ? '' : `; signing secret (generated): ${sandbox.webhookSecret ?? ''}`}`,
        ]
      : []),
    `try: curl -u ${key}: ${sandbox.url}/v2/issuer/claims`,
    // The OpenAPI document and its reference page, served without a key.
    `API reference: ${sandbox.url}/docs (OpenAPI 3.1: ${sandbox.url}/openapi.json)`,
    'stop with Ctrl-C',
  ];
  writeNotice(context.io.stdout, `${lines.join('\n')}\n`);
  context.logger.info(
    { url: sandbox.url, db: settings.db, control: flags.control, outcomes: flags.outcomes },
    'sandbox started',
  );
}

/** Until Ctrl-C or SIGTERM, then the sandbox closed; a close that fails is logged, and the command still ends. */
async function untilStopped(context: CliContext, sandbox: Sandbox): Promise<void> {
  await new Promise<void>((stopped) => {
    context.io.onStop?.(() => {
      sandbox.close().then(stopped, (error: unknown) => {
        context.logger.error({ err: error }, 'sandbox did not close cleanly');
        stopped();
      });
    });
  });
}

/** No fault flag: no faults. Otherwise the seeded injector, or a usage error naming the flag. */
function faultInjectorFrom(
  flags: FaultFlags,
  createFaultInjector: (config: FaultConfig) => FaultInjector,
  routes: Parameters<typeof faultConfigFromFlags>[1],
): FaultInjector | undefined {
  const given = faultFlagHelp.some(({ flags: spelled }) => flags[flagKey(spelled)] !== undefined);
  if (!given) return undefined;
  try {
    return createFaultInjector(faultConfigFromFlags(flags, routes));
  } catch (error) {
    throw new UsageError((error as Error).message, { cause: error });
  }
}

/** `--outcomes` draws its paths from `--seed`, checked as the faults check it (default 1). */
function outcomeSeed(flags: FaultFlags): number {
  try {
    return faultConfigFromFlags({ seed: flags.seed }).seed;
  } catch (error) {
    throw new UsageError((error as Error).message, { cause: error });
  }
}

/** `--drop-after-commit-rate <rate>` → `dropAfterCommitRate`, the key commander gives it. */
function flagKey(spelled: string): keyof FaultFlags {
  const name = spelled.split(' ')[0]?.replace(/^--/, '') ?? '';
  return name.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase()) as keyof FaultFlags;
}

function retrySchedule(value: string): number[] {
  try {
    return parseRetrySchedule(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}
