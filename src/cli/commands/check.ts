import { Command } from 'commander';
import { ClaimsClient } from '../../api/client/index.js';
import { ClaimsHttpError, ResponseShapeError } from '../../api/errors.js';
import { ExitCode, UsageError, type ExitCodeValue } from '../exit-codes.js';
import type { CliContext } from '../context.js';
import { describeProxy } from '../../api/network/proxy-route.js';
import type { NetworkFlags } from '../network-settings.js';
import { addServiceOptions } from './service-target.js';
import { environmentOf, resolveServiceSettings } from '../settings.js';

interface CheckFlags extends NetworkFlags {
  baseUrl?: string;
  apiKeyFile?: string;
}

/** A server certificate this close to its expiry gets a warning: time to renew before a nightly run fails. */
const expiryWarningDays = 30;

/**
 * `bulk-disputes check`: one read (the newest claim) to prove the base URL answers and the key is
 * accepted, before a nightly job depends on both. Exit 0 when it does, 3 when refused or down.
 */
export function checkCommand(context: CliContext): Command {
  return addServiceOptions(
    new Command('check').description(
      'check that the service answers and accepts the API key (one read, nothing written); print the route, TLS and certificates',
    ),
    { baseUrl: 'service base address (default: CLAIMS_BASE_URL)', sandbox: false },
  )
    .addHelpText('after', checkHelp)
    .action(async (flags: CheckFlags) => {
      context.setExitCode(await runCheck(flags, context));
    });
}

async function runCheck(flags: CheckFlags, context: CliContext): Promise<ExitCodeValue> {
  const settings = await resolveServiceSettings(flags, context.io.env);
  const client = new ClaimsClient({ ...settings, logger: context.logger, retry: { maxAttempts: 3 } });
  const startedMs = Date.now();
  try {
    // What the way to the service looks like, printed first: it is what to read when the request fails.
    context.io.stdout.write(await describeConnection(client));
    const { attempts } = await client.claims.list({ limit: 1 }).catch((error: unknown) => {
      throw asSettingsError(error, settings.baseUrl);
    });
    const environment = environmentOf(settings.apiKey);
    context.logger.info(
      { baseUrl: settings.baseUrl, environment, attempts, durationMs: Date.now() - startedMs },
      'service reachable, key accepted',
    );
    const { clientCertificate } = client.connection();
    if (clientCertificate) context.io.stdout.write('client certificate: sent and accepted\n');
    context.io.stdout.write(`ok: ${settings.baseUrl} accepted the key (${environment} environment)\n`);
    return ExitCode.ok;
  } finally {
    await client.close();
  }
}

const checkHelp = `
Example:
  $ HTTPS_PROXY=http://proxy.bank.internal:3128 bulk-disputes check --ca-file bank-root.pem \\
      --client-cert client.pem --client-key client.key
  route: through proxy http://proxy.bank.internal:3128 (HTTPS_PROXY)
  tls: TLSv1.3
  server certificate: CN=claims.example.com, issued by CN=Bank Issuing CA, expires 2027-03-01 (95 days)
  client certificate: configured
  client certificate: sent and accepted
  ok: https://claims.example.com accepted the key (production environment)

Exit 0 when the key is accepted; 2 for a wrong setting; 3 when refused or down; 4 when the
server's certificate is not trusted (untrusted CA, expired, another host); 5 for a client
certificate problem; 6 for a proxy problem.
`;

/** The route, the TLS version and both certificates, as a person checks a bank network's setup. */
async function describeConnection(client: ClaimsClient): Promise<string> {
  const { route, clientCertificate } = client.connection();
  const lines = [
    route.kind === 'direct'
      ? `route: direct (${route.reason})`
      : `route: through proxy ${describeProxy(route.proxy)} (${route.reason})`,
  ];
  const seen = await client.probe();
  if (seen.proxyStatus !== undefined && seen.proxyStatus !== 200)
    lines.push(
      `proxy: answered CONNECT with ${seen.proxyStatus}${seen.proxyAuthenticate === undefined ? '' : ` (${seen.proxyAuthenticate})`}`,
    );
  if (seen.failure !== undefined) lines.push(`connection: failed (${seen.failure})`);
  if (seen.tlsVersion !== undefined) lines.push(`tls: ${seen.tlsVersion}`);
  const certificate = seen.certificate;
  if (certificate !== undefined) {
    const trust = seen.trusted === true ? '' : `; NOT TRUSTED (${seen.trustError ?? 'unknown'})`;
    lines.push(
      `server certificate: ${certificate.subject}, issued by ${certificate.issuer}, expires ` +
        `${certificate.validTo.toISOString().slice(0, 10)} (${certificate.daysLeft} days)${trust}`,
    );
    if (seen.hostnameError !== undefined) lines.push(`server certificate: NOT FOR THIS HOST (${seen.hostnameError})`);
    if (certificate.daysLeft < expiryWarningDays)
      lines.push(`warning: the server certificate expires in ${certificate.daysLeft} days`);
  }
  lines.push(`client certificate: ${clientCertificate ? 'configured' : 'none configured'}`);
  return `${lines.join('\n')}\n`;
}

/**
 * A base URL that answers 404, or answers something that is not the Claims Service, is a wrong
 * setting (exit 2), not a row failure (1) nor an outage worth retrying (3).
 */
function asSettingsError(error: unknown, baseUrl: string): unknown {
  const notTheService =
    error instanceof ResponseShapeError ||
    (error instanceof ClaimsHttpError &&
      error.status >= 400 &&
      error.status < 500 &&
      ![401, 403, 429].includes(error.status));
  if (!notTheService) return error;
  return new UsageError(`base URL ${baseUrl}: expected the Claims Service, got ${(error as Error).message}`, {
    cause: error,
  });
}
