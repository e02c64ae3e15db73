import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

/**
 * One request. The body is serialised beforehand (building bodies is not what a load run
 * measures), or read when its turn comes (large files, so they are not all held at once).
 */
export interface LoadRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | (() => Promise<Uint8Array>);
}

export interface LoadOptions {
  /** e.g. `http://127.0.0.1:4010`. */
  readonly origin: string;
  /** Keep-alive connections in the undici Pool. */
  readonly connections: number;
  /** Requests in flight at once (closed loop: each worker sends its next when the last answers). */
  readonly concurrency: number;
  readonly requests: readonly LoadRequest[];
  /** Every answer must have this status; anything else fails the run (errors are not throughput). */
  readonly expectedStatus: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly elapsedMs: number;
  /** Per request, from reading or sending its body to the end of the response body; sorted ascending. */
  readonly latenciesMs: readonly number[];
  readonly requestsPerSecond: number;
}

/**
 * A closed-loop load generator: the same one drives the server under test and its baseline, so
 * the ratio compares servers, not clients. Every response body is read to the end (undici README,
 * "Garbage Collection"), as our own client does.
 */
export async function runClosedLoop(options: LoadOptions): Promise<LoadResult> {
  const pool = new Pool(options.origin, { connections: options.connections });
  const latenciesMs: number[] = [];
  let next = 0;
  const sendOne = async (request: LoadRequest) => {
    const sentMs = performance.now();
    const body = typeof request.body === 'function' ? await request.body() : request.body;
    const response = await pool.request({ method: 'POST', path: request.path, headers: request.headers, body });
    const text = await response.body.text();
    latenciesMs.push(performance.now() - sentMs);
    if (response.statusCode !== options.expectedStatus) {
      throw new Error(
        `load: expected ${options.expectedStatus} from POST ${request.path}, got ${response.statusCode}: ${text.slice(0, 300)}`,
      );
    }
  };
  const worker = async () => {
    for (let index = next++; index < options.requests.length; index = next++) {
      const request = options.requests[index];
      if (request === undefined) break;
      try {
        await sendOne(request);
      } catch (error) {
        // One failure fails the run: the other workers stop taking requests.
        next = options.requests.length;
        throw error;
      }
    }
  };
  try {
    const startedMs = performance.now();
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    const elapsedMs = performance.now() - startedMs;
    latenciesMs.sort((a, b) => a - b);
    return {
      requests: options.requests.length,
      elapsedMs,
      latenciesMs,
      requestsPerSecond: options.requests.length / (elapsedMs / 1000),
    };
  } finally {
    await pool.close();
  }
}

/** The `fraction` quantile (0.5: median) of ascending values, nearest rank. */
export function quantile(sortedValues: readonly number[], fraction: number): number {
  if (sortedValues.length === 0) return Number.NaN;
  const rank = Math.min(sortedValues.length - 1, Math.max(0, Math.ceil(fraction * sortedValues.length) - 1));
  return sortedValues[rank] ?? Number.NaN;
}
