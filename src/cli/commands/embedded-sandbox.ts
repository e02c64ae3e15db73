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
  const startedMs = Date.now();
  const clockMs = options.clock?.getTime();
  // Loaded only when used: a run against the service never carries the sandbox's code.
  const { createSandbox } = await import('../../sandbox/server.js');
  const sandbox = await createSandbox({
    db: options.db,
    apiKeys: configuredKey === undefined ? undefined : [configuredKey],
    // A pinned clock still moves: sample dates file the same way on any day.
    now: clockMs === undefined ? undefined : () => clockMs + (Date.now() - startedMs),
  });
  return { url: sandbox.url, apiKey: configuredKey ?? sandbox.generatedKey ?? '', close: async () => sandbox.close() };
}
