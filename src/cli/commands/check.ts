import { Command } from 'commander';
import { ClaimsClient } from '../../api/client/index.js';
import { ClaimsHttpError, ResponseShapeError } from '../../api/errors.js';
import { ExitCode, UsageError, type ExitCodeValue } from '../exit-codes.js';
import type { CliContext } from '../context.js';
import { environmentOf, resolveServiceSettings } from '../settings.js';

interface CheckFlags {
  baseUrl?: string;
  apiKeyFile?: string;
}

/**
 * `bulk-disputes check`: one read (the newest claim) to prove the base URL answers and the key is
 * accepted, before a nightly job depends on both. Exit 0 when it does, 3 when refused or down.
 */
export function checkCommand(context: CliContext): Command {
  return new Command('check')
    .description('check that the service answers and accepts the API key (one read, nothing written)')
    .option('--base-url <url>', 'service base address (default: CLAIMS_BASE_URL)')
    .option('--api-key-file <file>', 'read the API key from this file (default: CLAIMS_API_KEY)')
    .action(async (flags: CheckFlags) => {
      context.setExitCode(await runCheck(flags, context));
    });
}

async function runCheck(flags: CheckFlags, context: CliContext): Promise<ExitCodeValue> {
  const settings = await resolveServiceSettings(flags, context.io.env);
  const client = new ClaimsClient({ ...settings, logger: context.logger, retry: { maxAttempts: 3 } });
  const startedMs = Date.now();
  try {
    const { attempts } = await client.claims.list({ limit: 1 }).catch((error: unknown) => {
      throw asSettingsError(error, settings.baseUrl);
    });
    const environment = environmentOf(settings.apiKey);
    context.logger.info({ baseUrl: settings.baseUrl, environment, attempts, durationMs: Date.now() - startedMs }, 'service reachable, key accepted');
    context.io.stdout.write(`ok: ${settings.baseUrl} accepted the key (${environment} environment)\n`);
    return ExitCode.ok;
  } finally {
    await client.close();
  }
}

/**
 * A base URL that answers 404, or answers something that is not the Claims Service, is a wrong
 * setting (exit 2), not a row failure (1) nor an outage worth retrying (3).
 */
function asSettingsError(error: unknown, baseUrl: string): unknown {
  const notTheService =
    error instanceof ResponseShapeError ||
    (error instanceof ClaimsHttpError && error.status >= 400 && error.status < 500 && ![401, 403, 429].includes(error.status));
  if (!notTheService) return error;
  return new UsageError(`base URL ${baseUrl}: expected the Claims Service, got ${(error as Error).message}`, { cause: error });
}
