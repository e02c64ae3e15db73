import type { Command } from 'commander';
import { keyEnvironmentOf } from '../api/service-identity.js';
import type { MetricsSettings } from '../metrics/recorder.js';
import type { PushTarget } from '../metrics/push.js';
import { UsageError } from './exit-codes.js';
import { resolveNetwork, type NetworkFlags } from './network-settings.js';
import { resolveApiKey } from './settings.js';

/** The metrics flags as commander holds them (flags.ts adds them). */
export interface MetricsFlags extends NetworkFlags {
  metricsPush?: string | undefined;
  metricsJob?: string | undefined;
  metricsFile?: string | undefined;
  shard?: { index: number } | undefined;
  baseUrl?: string | undefined;
  apiKeyFile?: string | undefined;
}

/** Whether a command is a job command that takes the metrics flags. */
export function takesMetrics(command: Command): boolean {
  return command.options.some((option) => option.long === '--metrics-push');
}

/**
 * Where the run's metrics go, or undefined when nowhere: checked before anything runs, a bad URL
 * or an empty job name is a usage error (exit 2). The shard is `--shard i/n`'s i, else the
 * Indexed Job's JOB_COMPLETION_INDEX + 1 (docs/monitoring.md); merge-results, the night's
 * totals, is a group of its own without one.
 */
export async function resolveMetricsSettings(
  command: Command,
  env: NodeJS.ProcessEnv,
): Promise<MetricsSettings | undefined> {
  const flags = command.opts<MetricsFlags>();
  const job = flags.metricsJob ?? command.name();
  if (job.trim() === '') throw new UsageError('--metrics-job: expected a name, got an empty one');
  const pushText = flags.metricsPush ?? nonEmpty(env.CLAIMS_METRICS_PUSH_URL);
  if (pushText === undefined && flags.metricsFile === undefined) return undefined;
  const push =
    pushText === undefined
      ? undefined
      : await pushTargetOf(
          pushText,
          flags.metricsPush === undefined ? 'CLAIMS_METRICS_PUSH_URL' : '--metrics-push',
          env,
          flags,
        );
  return {
    job,
    shard: command.name() === 'merge-results' ? undefined : shardOf(flags, env),
    file: flags.metricsFile,
    push,
  };
}

async function pushTargetOf(
  text: string,
  from: string,
  env: NodeJS.ProcessEnv,
  flags: NetworkFlags,
): Promise<PushTarget> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Echoed only when it holds no credentials.
    throw new UsageError(
      `${from}: expected an http(s) URL, got ${text.includes('@') ? 'one that does not parse' : text}`,
    );
  }
  const user = url.username === '' ? nonEmpty(env.CLAIMS_METRICS_PUSH_USER) : decodeURIComponent(url.username);
  const password = url.password === '' ? nonEmpty(env.CLAIMS_METRICS_PUSH_PASSWORD) : decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${from}: expected an http(s) URL, got ${url.protocol}//${url.host}`);
  if (url.search !== '' || url.hash !== '')
    throw new UsageError(`${from}: expected an http(s) URL without query or fragment, got ${url.href}`);
  return { url, user, password, network: await resolveNetwork(flags, env) };
}

function shardOf(flags: MetricsFlags, env: NodeJS.ProcessEnv): number | undefined {
  if (flags.shard !== undefined) return flags.shard.index;
  const index = nonEmpty(env.JOB_COMPLETION_INDEX);
  return index !== undefined && /^\d+$/.test(index) ? Number(index) + 1 : undefined;
}

/**
 * The API key's environment, `test` or `live`: from the key the run was given, else `test` when
 * no service is named (the embedded sandbox takes test keys only), `live` when one is.
 */
export async function keyEnvironment(command: Command, env: NodeJS.ProcessEnv): Promise<'test' | 'live'> {
  const flags = command.opts<MetricsFlags>();
  const key = await resolveApiKey(flags, env).catch(() => nonEmpty(env.CLAIMS_API_KEY));
  if (key !== undefined) return keyEnvironmentOf(key);
  return (flags.baseUrl ?? nonEmpty(env.CLAIMS_BASE_URL)) === undefined ? 'test' : 'live';
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
