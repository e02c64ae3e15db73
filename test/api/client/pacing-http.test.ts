import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ClaimsClient } from '../../../src/api/client/index.js';
import { testApiKey } from '../../helpers/client.js';
import { json, startScriptedServer, type Step } from '../../helpers/scripted-server.js';

/**
 * The job's pace through a real server on loopback and the real clock: `--max-rps` spaces every
 * request of one client, and a 429's Retry-After over a second pauses all of its requests, not only the one that got it.
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
  return new ClaimsClient({
    baseUrl,
    apiKey: testApiKey,
    concurrency: options.concurrency ?? 16,
    maxRps: options.maxRps,
  });
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
    // Every pair of arrivals i < j is (j - i) token times apart, less the arrival jitter of a loaded
    // machine: the tokens pace the sends, and a send that opens a new connection (or waits for a busy
    // event loop) arrives some ms after it left: CI runs saw one arrive 8 ms late, and another 33 ms
    // late, leaving a 17 ms gap to the next. Unpaced, all ten arrive within a few ms of each other.
    const jitterMs = 40;
    const tooClose: string[] = [];
    for (let i = 0; i < sorted.length; i += 1) {
      for (let j = i + 1; j < sorted.length; j += 1) {
        const apart = (sorted[j] ?? 0) - (sorted[i] ?? 0);
        if (apart < (j - i) * 50 - jitterMs) tooClose.push(`${i}→${j}: ${apart.toFixed(1)} ms`);
      }
    }
    expect(tooClose).toEqual([]);
    expect((sorted.at(-1) ?? 0) - (sorted[0] ?? 0)).toBeGreaterThanOrEqual(9 * 50 - jitterMs);
  });

  it('a 429 with Retry-After: 2 holds every request of the job for two seconds, including ones started after it', async () => {
    const times: number[] = [];
    const before = 20;
    const server = await startScriptedServer(
      arrivals(times, (index) =>
        index === before ? json(429, { message: 'slow down' }, { 'retry-after': '2' }) : json(200, page),
      ),
    );
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
      // Some requests first: the pace after the 429 is 0.7 of what was sent in the last second, not one request's.
      for (let index = 0; index < before; index++) await client.events.list();
      const throttled = await client.events.list();
      await Promise.all(others);
      expect(throttled.attempts).toBe(2);
      expect(client.pacing()).toMatchObject({ requests: before + 4, answered429: 1, pauses: 1, pausedMs: 2000 });
    } finally {
      await client.close();
    }
    expect(times).toHaveLength(before + 4);
    // Timers may fire a millisecond early; the 429's own arrival is before the pause.
    for (const time of times.slice(before + 1)) expect(time - throttledAtMs).toBeGreaterThanOrEqual(1995);
  });
});
