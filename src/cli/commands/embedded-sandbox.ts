import { resolveApiKey } from '../settings.js';

export interface EmbeddedSandbox {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/**
 * The sandbox in this process, for commands given no service address: on a loopback port, its
 * data in a file so a re-run resumes against the same claims and `bulk-disputes sandbox --db` can
 * show them afterwards.
 */
export async function startEmbeddedSandbox(options: {
  env: NodeJS.ProcessEnv;
  apiKeyFile?: string | undefined;
  db: string;
  clock?: Date | undefined;
}): Promise<EmbeddedSandbox> {
  const configuredKey = await resolveApiKey({ apiKeyFile: options.apiKeyFile }, options.env);
  // Loaded only when used: a run against the service never carries the sandbox's code.
  const { createSandbox } = await import('../../sandbox/server.js');
  const sandbox = await createSandbox({
    db: options.db,
    apiKeys: configuredKey === undefined ? undefined : [configuredKey],
    now: options.clock === undefined ? undefined : runningClock(options.clock),
  });
  return { url: sandbox.url, apiKey: configuredKey ?? sandbox.generatedKey ?? '', close: async () => sandbox.close() };
}

/**
 * `--sandbox-clock`: a clock that starts at `start` and runs on from now. A pinned clock still
 * moves, so sample dates file the same way on any day; an import's dry run checks filing by it too.
 */
export function runningClock(start: Date): () => number {
  const startMs = start.getTime();
  const startedMs = Date.now();
  return () => startMs + (Date.now() - startedMs);
}
