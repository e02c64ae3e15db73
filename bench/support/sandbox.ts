import { startChildServer, type ChildServer } from './child-server.js';

/** The key every benchmark sandbox accepts (a `test_` key: the sandbox environment). */
export const benchApiKey = 'test_bench';

export interface SandboxOptions {
  /** The built CLI (`BenchContext.cliBin`). */
  readonly cliBin: string;
  /** Its SQLite file: a fresh one per measurement, so earlier runs' rows do not slow it down. */
  readonly dbFile: string;
  /** More `sandbox` flags, e.g. `['--latency-ms', '50']`. */
  readonly flags?: readonly string[];
}

/**
 * `bulk-disputes sandbox` as a real process on a free port (as test/helpers/sandbox-process.ts
 * starts it), with warnings only: per-request logging would cost the sandbox time we measure.
 */
export async function startSandbox(options: SandboxOptions): Promise<ChildServer> {
  return startChildServer({
    args: [options.cliBin, '--log-level', 'warn', 'sandbox', '--port', '0', '--db', options.dbFile, '--api-key', benchApiKey, ...(options.flags ?? [])],
    listening: /sandbox listening on (https?:\/\/\S+)/,
  });
}

/** Runs `body` with a sandbox, and stops the sandbox however `body` ends. */
export async function withSandbox<Result>(options: SandboxOptions, body: (sandbox: ChildServer) => Promise<Result>): Promise<Result> {
  const sandbox = await startSandbox(options);
  try {
    return await body(sandbox);
  } finally {
    await sandbox.stop();
  }
}

/** Tells a sandbox started with `--control` what to inject from now on (`POST /_sandbox/faults`, the whole configuration). */
export async function setSandboxFaults(baseUrl: string, config: Readonly<Record<string, unknown>>): Promise<void> {
  const response = await fetch(new URL('/_sandbox/faults', baseUrl), {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${benchApiKey}:`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify(config),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`bench: expected 200 from POST /_sandbox/faults, got ${response.status}: ${text.slice(0, 300)}`);
}
