import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { jobResourceFailure } from '../../files/resource-failure.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { environmentOf, resolveApiKey, resolveRequireService, resolveServiceSettings } from '../settings.js';
import { embeddedSandbox, serviceAt, type ServiceIdentity } from '../../api/service-identity.js';
import { startEmbeddedSandbox, type EmbeddedSandbox } from './embedded-sandbox.js';
import type { ServiceTarget } from '../../api/service-target.js';
import { addNetworkOptions, type NetworkFlags } from '../network-settings.js';

export interface ServiceTargetFlags extends NetworkFlags {
  baseUrl?: string | undefined;
  apiKeyFile?: string | undefined;
  sandboxDb: string;
  sandboxClock?: Date | undefined;
  /** `--require-service`: no service named is an error (exit 2), not a run on the embedded sandbox. */
  requireService?: boolean | undefined;
}

export interface ChosenService {
  /** `identity` is what a journal or an export bookmark records of it. */
  service: ServiceTarget & { identity: ServiceIdentity };
  /** Set when no address was given: the sandbox started in this process, to close at the end. */
  embedded?: EmbeddedSandbox;
}

/** The flags of a job that sends or reads many (import, migrate-v1, withdraw, track): its service, its pace, its journal's restart. */
export interface JobFlags extends ServiceTargetFlags {
  concurrency: number;
  maxRps?: number | undefined;
  restart: boolean;
}

/** Where the help of `--base-url` and `--api-key-file` differs from a job's (check, review --send), and which sandbox flags there are. */
export interface ServiceOptionsHelp {
  baseUrl?: string;
  apiKeyFile?: string;
  /** The embedded sandbox, when no address is given: `--sandbox-db` (the default), and `--sandbox-clock` for import. */
  sandbox?: false | 'db' | 'db-and-clock';
}

/** The service's flags, and the network's, declared once for every command that talks to the service. */
export function addServiceOptions(command: Command, help: ServiceOptionsHelp = {}): Command {
  command
    .option(
      '--base-url <url>',
      help.baseUrl ?? 'service base address (default: CLAIMS_BASE_URL; neither: the embedded sandbox)',
    )
    .option('--api-key-file <file>', help.apiKeyFile ?? 'read the API key from this file (default: CLAIMS_API_KEY)');
  const sandbox = help.sandbox ?? 'db';
  if (sandbox !== false)
    command
      .option('--sandbox-db <file>', 'embedded sandbox only: where it keeps its data', 'sandbox.db')
      .option(
        '--require-service',
        'no --base-url or CLAIMS_BASE_URL is an error (exit 2), not a run on the embedded sandbox: for scheduled jobs ' +
          '(default: CLAIMS_REQUIRE_SERVICE=1)',
      );
  if (sandbox === 'db-and-clock')
    command.option(
      '--sandbox-clock <datetime>',
      'embedded sandbox only: start its clock at this time (e.g. 2026-11-20T12:00:00Z); a dry run checks filing at it',
      sandboxClockOf,
    );
  return addNetworkOptions(command);
}

function sandboxClockOf(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new InvalidArgumentError(
      `--sandbox-clock: expected an ISO 8601 time such as 2026-11-20T12:00:00Z, got ${value}`,
    );
  return date;
}

/** What a job against its service is run with, from its flags and the CLI's context. */
export interface JobSetUp {
  service: ChosenService['service'];
  concurrency: number;
  maxRps: number | undefined;
  restart: boolean;
  logger: CliContext['logger'];
  /** Set by Ctrl-C or SIGTERM. */
  stopRequested: () => boolean;
  progress: CliContext['progress'];
}

/**
 * A job against its service (migrate-v1, withdraw, track): the service chosen as `serviceTarget`
 * says, a stop asked for by Ctrl-C or SIGTERM, and the embedded sandbox closed at the end. A full
 * disk or a refused folder is told in words naming the journal or the file.
 */
export async function runAgainstService<Result>(
  flags: JobFlags,
  context: CliContext,
  job: { doing: string; journalFile: string; maxRps: number | undefined },
  run: (setUp: JobSetUp) => Promise<Result>,
): Promise<Result> {
  const { service, embedded } = await serviceTarget(flags, context, job.doing);
  const stopRequested = stopOnSignal(context);
  try {
    const { concurrency, restart } = flags;
    const { logger, progress } = context;
    return await run({ service, concurrency, maxRps: job.maxRps, restart, logger, stopRequested, progress });
  } catch (error) {
    throw jobResourceFailure(error, { journal: job.journalFile });
  } finally {
    await embedded?.close();
  }
}

/**
 * Where import, export and migrate-v1 talk to: the service at `--base-url` or CLAIMS_BASE_URL, or
 * else the embedded sandbox, said so on stderr and in the log.
 * `doing` completes "no --base-url: … the embedded sandbox", e.g. "importing into".
 */
export async function serviceTarget(
  flags: ServiceTargetFlags,
  context: CliContext,
  doing: string,
): Promise<ChosenService> {
  const { io, logger } = context;
  // Read whether or not it is needed: a bad value stops the job either way (exit 2).
  const requireService = resolveRequireService(flags.requireService, io.env);
  if (!usesEmbeddedSandbox(flags, io.env)) {
    const settings = await resolveServiceSettings(flags, io.env);
    return { service: { ...settings, identity: serviceAt(settings.baseUrl, settings.apiKey) } };
  }
  // A live key with no address is a job missing CLAIMS_BASE_URL, not a wish to try the sandbox:
  // working on a local sandbox and exiting 0 would hide that the night's work went nowhere.
  const key = await resolveApiKey(flags, io.env);
  if (key !== undefined && environmentOf(key) === 'production') {
    throw new UsageError(
      'base URL: expected --base-url URL or CLAIMS_BASE_URL with a live API key, got neither (the embedded sandbox is for test_ keys only)',
    );
  }
  // A scheduled job with its settings lost must not pass for a night's work (docs/nightly-job.md).
  if (requireService)
    throw new UsageError(
      'base URL: expected --base-url URL or CLAIMS_BASE_URL, got neither (--require-service or CLAIMS_REQUIRE_SERVICE: ' +
        'this job must reach a service, not the embedded sandbox)',
    );
  const db = resolve(flags.sandboxDb);
  await mkdir(dirname(db), { recursive: true });
  const embedded = await startEmbeddedSandbox({
    env: io.env,
    apiKeyFile: flags.apiKeyFile,
    db,
    clock: flags.sandboxClock,
  });
  // A warning: in a scheduled run it is a missing setting, and nothing reaches a service.
  logger.warn(
    { url: embedded.url, db },
    `no --base-url or CLAIMS_BASE_URL: ${doing} the embedded sandbox: nothing reaches a service ` +
      '(--require-service or CLAIMS_REQUIRE_SERVICE=1 makes this an error)',
  );
  // Said to a person once: a human log line on a terminal already says it.
  if (context.logFormat !== 'pretty')
    io.stderr.write(`no --base-url: ${doing} the embedded sandbox (data in ${db}): nothing reaches a service\n`);
  return {
    service: { baseUrl: embedded.url, apiKey: embedded.apiKey, identity: embeddedSandbox(db, embedded.apiKey) },
    embedded,
  };
}

/**
 * No address given: the run goes to the embedded sandbox. Known before it starts, so a rehearsal's
 * default file names can say so (`disputes.sandbox.journal.sqlite`).
 */
export function usesEmbeddedSandbox(flags: { baseUrl?: string | undefined }, env: NodeJS.ProcessEnv): boolean {
  return flags.baseUrl === undefined && (env.CLAIMS_BASE_URL ?? '').trim() === '';
}

/** The part of a default file name that keeps a rehearsal's files apart from the real run's. */
export function sandboxNamePart(flags: { baseUrl?: string | undefined }, env: NodeJS.ProcessEnv): string {
  return usesEmbeddedSandbox(flags, env) ? '.sandbox' : '';
}

/** A flag that Ctrl-C or SIGTERM sets: the run stops pulling work, finishes what is in flight, writes its results. */
export function stopOnSignal(context: CliContext): () => boolean {
  let stopRequested = false;
  context.io.onStop?.(() => {
    stopRequested = true;
    context.logger.warn('stop requested: finishing the claims in flight, then writing the results');
  });
  return () => stopRequested;
}
