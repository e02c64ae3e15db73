import { join } from 'node:path';
import type { BenchContext } from '../types.js';
import { startCannedJsonServer } from './bare-server.js';
import { runClosedLoop } from './load.js';

/**
 * What this machine allows with no code of ours at all: the bench's closed-loop undici
 * client against a bare node:http server answering after the same latency, `requests` requests
 * at `concurrency`. On 2 cores even this pair stays below concurrency / latency (timers,
 * wake-ups, the loopback); the submit and withdraw cases show it beside their figures.
 */
export async function barePairPerSecond(
  context: BenchContext,
  options: { name: string; concurrency: number; requests: number; latencyMs: number },
): Promise<number> {
  const body = Buffer.from(JSON.stringify({ claim_id: 'CLM-BARE', padding: 'x'.repeat(900) }));
  const server = await startCannedJsonServer(
    201,
    '{"claim_id":"CLM-BARE"}',
    join(context.workDir, `${options.name}-bare.json`),
    options.latencyMs,
  );
  try {
    const load = Array.from({ length: options.requests }, () => ({
      path: '/v2/issuer/new_claim',
      headers: { 'content-type': 'application/json' },
      body,
    }));
    const result = await runClosedLoop({
      origin: server.url,
      connections: options.concurrency,
      concurrency: options.concurrency,
      requests: load,
      expectedStatus: 201,
    });
    return result.requestsPerSecond;
  } finally {
    await server.stop();
  }
}
