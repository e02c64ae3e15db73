import { readFile } from 'node:fs/promises';
import { UsageError } from './exit-codes.js';
import { positiveNumber } from './flags.js';
import { resolveOptions, type NetworkOptions } from '../api/client/config.js';
import { resolveNetwork, type NetworkFlags } from './network-settings.js';
import { codeOf } from '../errors/coded-error.js';

/**
 * Where the service and the key come from: flags and the environment, never a key as a flag
 * value (it would show in `ps`); `--api-key-file` is fine.
 */

export interface ServiceSettings {
  baseUrl: string;
  apiKey: string;
  /** Proxy, CAs, client certificate. */
  network: NetworkOptions;
}

export interface ServiceFlags extends NetworkFlags {
  baseUrl?: string | undefined;
  apiKeyFile?: string | undefined;
}

export async function resolveServiceSettings(flags: ServiceFlags, env: NodeJS.ProcessEnv): Promise<ServiceSettings> {
  const baseUrl = flags.baseUrl ?? nonEmpty(env.CLAIMS_BASE_URL);
  if (baseUrl === undefined) {
    throw new UsageError('base URL: expected --base-url URL or CLAIMS_BASE_URL, got neither');
  }
  const apiKey = await resolveApiKey(flags, env);
  if (apiKey === undefined) {
    throw new UsageError('API key: expected CLAIMS_API_KEY or --api-key-file FILE, got neither');
  }
  const settings = { baseUrl, apiKey, network: await resolveNetwork(flags, env) };
  // Checked here, as the client will check them, so that a bad address (credentials in it, a
  // query) or a broken proxy or certificate stops the job before a journal is made or a row staged.
  resolveOptions(settings);
  return settings;
}

/** The key from `--api-key-file` or CLAIMS_API_KEY, or undefined when neither gives one. */
export async function resolveApiKey(flags: ServiceFlags, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return flags.apiKeyFile !== undefined ? readKeyFile(flags.apiKeyFile) : nonEmpty(env.CLAIMS_API_KEY);
}

/** The whole file is the key, less the line break an editor leaves at its end. */
async function readKeyFile(path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = codeOf(error) ?? 'unreadable';
    throw new UsageError(`--api-key-file ${path}: expected a readable file holding the API key, got ${reason}`, {
      cause: error,
    });
  }
  const key = text.replace(/\r?\n$/, '');
  if (key.length === 0) throw new UsageError(`--api-key-file ${path}: expected the API key, got an empty file`);
  return key;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * `--max-rps`, else CLAIMS_MAX_RPS, else no limit. A bad variable is a usage error
 * (exit 2) before anything is sent, in the flag's words.
 */
export function resolveMaxRps(flagValue: number | undefined, env: NodeJS.ProcessEnv): number | undefined {
  if (flagValue !== undefined) return flagValue;
  const text = nonEmpty(env.CLAIMS_MAX_RPS);
  if (text === undefined) return undefined;
  try {
    return positiveNumber('CLAIMS_MAX_RPS')(text);
  } catch (error) {
    throw new UsageError((error as Error).message, { cause: error });
  }
}

/** Test keys select the sandbox environment (docs/sandbox.md, "Keys and environments"). */
/**
 * `--require-service`, else CLAIMS_REQUIRE_SERVICE (`1`, `true`, `yes`; `0`, `false`, `no` or empty:
 * off): a job that must reach a service stops, exit 2, rather than work on the embedded sandbox.
 */
export function resolveRequireService(flagValue: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (flagValue === true) return true;
  const text = (env.CLAIMS_REQUIRE_SERVICE ?? '').trim().toLowerCase();
  if (['1', 'true', 'yes'].includes(text)) return true;
  if (['', '0', 'false', 'no'].includes(text)) return false;
  throw new UsageError(`CLAIMS_REQUIRE_SERVICE: expected 1 or 0, got ${env.CLAIMS_REQUIRE_SERVICE ?? ''}`);
}

export function environmentOf(apiKey: string): 'sandbox' | 'production' {
  return apiKey.startsWith('test_') ? 'sandbox' : 'production';
}
