import pLimit from 'p-limit';
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
    args: [
      options.cliBin,
      '--log-level',
      'warn',
      'sandbox',
      '--port',
      '0',
      '--db',
      options.dbFile,
      '--api-key',
      benchApiKey,
      ...(options.flags ?? []),
    ],
    listening: /sandbox listening on (https?:\/\/\S+)/,
  });
}

/** Runs `body` with a sandbox, and stops the sandbox however `body` ends. */
export async function withSandbox<Result>(
  options: SandboxOptions,
  body: (sandbox: ChildServer) => Promise<Result>,
): Promise<Result> {
  const sandbox = await startSandbox(options);
  try {
    return await body(sandbox);
  } finally {
    await sandbox.stop();
  }
}

/** The `authorization` header of a request of the bench's own to a sandbox (`benchApiKey`). */
export const benchAuthorization = `Basic ${Buffer.from(`${benchApiKey}:`).toString('base64')}`;

/** POST to a control route of a sandbox started with `--control`; anything but 200 throws. */
async function postControl(baseUrl: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(new URL(path, baseUrl), {
    method: 'POST',
    headers: { authorization: benchAuthorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`bench: expected 200 from POST ${path}, got ${response.status}: ${text.slice(0, 300)}`);
}

/** Tells a sandbox started with `--control` what to inject from now on (`POST /_sandbox/faults`, the whole configuration). */
export async function setSandboxFaults(baseUrl: string, config: Readonly<Record<string, unknown>>): Promise<void> {
  await postControl(baseUrl, '/_sandbox/faults', config);
}

/** The card network's move of each case to `status` (`POST /_sandbox/cases/{id}/advance`, an event each), `concurrency` at once. */
export async function advanceCases(
  baseUrl: string,
  caseIds: readonly string[],
  status: string,
  concurrency: number,
): Promise<void> {
  const limit = pLimit(concurrency);
  await Promise.all(
    caseIds.map(async (caseId) =>
      limit(async () => postControl(baseUrl, `/_sandbox/cases/${encodeURIComponent(caseId)}/advance`, { status })),
    ),
  );
}

/**
 * The refusal cases' sandbox flags: a latency, a second's Retry-After and a seed, the same for
 * every run of a case, then the faults of the run (`--fail-rate 0.05`, `--rate-limit 100`, …).
 */
export function seededFaultFlags(latencyMs: number, seed: number, ...faults: readonly string[]): string[] {
  return ['--latency-ms', String(latencyMs), '--retry-after-seconds', '1', '--seed', String(seed), ...faults];
}
