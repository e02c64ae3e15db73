import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ClaimsClient } from '../../../src/api/client/index.js';
import { testApiKey } from '../../helpers/client.js';
import { json, startScriptedServer, type Step } from '../../helpers/scripted-server.js';

/**
 * Issue 13 through a real server on loopback and the real clock: `--max-rps` spaces every
 * request of one client, and a Retry-After pauses all of its requests, not only the one that got it.
 */

const page = { data: [], has_more: false };

/** A step that notes when the request arrived (ms, this process's clock), then answers. */
function arrivals(times: number[], answer: (index: number) => Step): (index: number) => Step {
  return (index) => async (request, response) => {
    times[index] = performance.now();
    await answer(index)(request, response);
  };
}

function realClient(baseUrl: string, options: { maxRps?: number; concurrency?: number } = {}): ClaimsClient {
  return new ClaimsClient({ baseUrl, apiKey: testApiKey, concurrency: options.concurrency ?? 16, maxRps: options.maxRps });
}

describe('pacing through a real server', () => {
  it('--max-rps 20: ten requests sent at once reach the server 50 ms apart', async () => {
    const times: number[] = [];
    const server = await startScriptedServer(arrivals(times, () => json(200, page)));
    const client = realClient(server.url, { maxRps: 20 });
    try {
      // One request first, so the ten do not wait for a connection to be set up; then a token's time.
      await client.events.list();
      await sleep(60);
      await Promise.all(Array.from({ length: 10 }, async () => client.events.list()));
      expect(client.pacing()).toMatchObject({ maxRps: 20, requests: 11, waitedForToken: 9, answered429: 0 });
    } finally {
      await client.close();
    }
    const sorted = times.slice(1).sort((left, right) => left - right);
    // Nine token times between the first and the last, less the arrival jitter of a loaded machine:
    // the tokens pace the sends, and a send that opens a new connection arrives a few ms after it
    // left (a CI run saw the first arrive 8 ms late: 442 ms). Unpaced, the span would be ~0 ms.
    expect((sorted.at(-1) ?? 0) - (sorted[0] ?? 0)).toBeGreaterThanOrEqual(9 * 50 - 20);
    // And never more than 20 in any second, nor two within a few ms: each waited for its own token.
    const gaps = sorted.slice(1).map((time, index) => time - (sorted[index] ?? 0));
    expect(gaps.filter((gap) => gap < 25)).toEqual([]);
  });

  it('a 429 with Retry-After: 1 holds every request of the job for a second, including ones started after it', async () => {
    const times: number[] = [];
    const server = await startScriptedServer(arrivals(times, (index) => (index === 0 ? json(429, { message: 'slow down' }, { 'retry-after': '1' }) : json(200, page))));
    const client = realClient(server.url);
    let throttledAtMs = 0;
    const others: Promise<unknown>[] = [];
    client.onAttempt((report) => {
      if (!report.throttled) return;
      throttledAtMs = performance.now();
      // Two new requests, started the moment the 429 is read: they wait out the pause too.
      others.push(client.events.list(), client.events.list());
    });
    try {
      const first = await client.events.list();
      await Promise.all(others);
      expect(first.attempts).toBe(2);
      expect(client.pacing()).toMatchObject({ requests: 4, answered429: 1, pauses: 1, pausedMs: 1000 });
    } finally {
      await client.close();
    }
    expect(times).toHaveLength(4);
    // Timers may fire a millisecond early; the 429's own arrival is before the pause.
    for (const time of times.slice(1)) expect(time - throttledAtMs).toBeGreaterThanOrEqual(995);
  });
});
