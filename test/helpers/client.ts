import { onTestFinished } from 'vitest';
import { ClaimsClient, type ClientOptions } from '../../src/api/client/index.js';

export const testApiKey = 'test_8f14e45fceea167a5a36dedd4bea2543';

export interface SleepRecorder {
  delaysMs: number[];
  sleep: (delayMs: number) => Promise<void>;
}

/** A fake sleep that records the delays it was asked for and returns at once. */
export function recordSleeps(): SleepRecorder {
  const delaysMs: number[] = [];
  return {
    delaysMs,
    sleep: async (delayMs) => {
      delaysMs.push(delayMs);
      return Promise.resolve();
    },
  };
}

/** A client for a test server, closed when the test finishes. Sleep is instant unless given. */
export function clientFor(baseUrl: string, options: Partial<ClientOptions> = {}): ClaimsClient {
  const client = new ClaimsClient({
    baseUrl,
    apiKey: testApiKey,
    random: () => 0.5,
    sleep: async () => Promise.resolve(),
    ...options,
  });
  onTestFinished(async () => client.close());
  return client;
}
