import { xoroshiro128plus } from 'pure-rand';
import { TokenBucket } from '../../api/token-bucket.js';
import {
  faultConfigSchema,
  routeScopeMatches,
  type FaultConfig,
  type FaultConfigInput,
  type LatencyMs,
} from './config.js';
import type { FaultAction, FaultDecision, FaultInjector, RouteKey } from './fault-injector.js';

/**
 * Seeded fault injection: a failing run can be replayed with its `--seed`.
 *
 * Determinism: one generator per injector, seeded from `config.seed`. Every decision for a route
 * in scope takes exactly `drawsPerDecision` values, in a fixed order, whatever the outcome (a
 * rate-limited or dropped request draws as many as one that goes through), so the n-th request
 * in scope always meets the same values. Routes out of scope take none: adding fault-free reads
 * to a run does not shift the faults of the routes under test. The rate limit and the capacity
 * take none either: they depend only on the `nowMs` sequence and on the requests in progress. So: same seed + same sequence of in-scope requests
 * (and their clock readings, per API key) → same decisions.
 */

/** Per decision in scope: drop, fail, drop-after-commit, latency; always all four, in that order. */
export const drawsPerDecision = 4;

/** Uniform values in [0, 1), one per fault rule, drawn before any rule is applied. */
export interface FaultDraws {
  drop: number;
  fail: number;
  dropAfterCommit: number;
  latency: number;
}

/** The configuration each injector was made from, for `GET /_sandbox/faults`. */
const configs = new WeakMap<FaultInjector, FaultConfig>();

/** An injector for this configuration (validated here; a bad one throws a ZodError). */
export function createFaultInjector(input: FaultConfigInput): FaultInjector {
  const config = faultConfigSchema.parse(input);
  const random = uniformSource(config.seed);
  const admit = rateLimiter(config.rateLimitPerSecond);
  const routes = config.routes;
  const inScope = (route: RouteKey) => routes === undefined || routes.some((scope) => routeScopeMatches(scope, route));
  const places = capacityOf(config.capacity);
  const injector: FaultInjector = {
    decide(route, nowMs, apiKey = '') {
      if (!inScope(route)) return { latencyMs: 0, action: 'none' };
      // Property order is evaluation order: the draws are taken in the documented order.
      const draws: FaultDraws = { drop: random(), fail: random(), dropAfterCommit: random(), latency: random() };
      const decision = decisionFrom(config, draws, admit(nowMs, apiKey));
      if (places === undefined || decision.action === 'rate-limit') return decision;
      // After the rate limit, before anything else: a service at capacity refuses what it cannot hold.
      const release = places.take();
      if (release === undefined)
        return { latencyMs: 0, action: 'over-capacity', retryAfterSeconds: config.retryAfterSeconds };
      return { ...decision, release };
    },
  };
  configs.set(injector, config);
  return injector;
}

/** The configuration behind an injector made by createFaultInjector; undefined for any other. */
export function faultConfigOf(injector: FaultInjector): FaultConfig | undefined {
  return configs.get(injector);
}

/**
 * The decision for one request in scope, from its draws and the rate limit's answer (0: a token
 * was there; otherwise the ms until the next one): pure, so every rule is testable alone.
 */
export function decisionFrom(config: FaultConfig, draws: FaultDraws, rateLimitedForMs: number): FaultDecision {
  const action = actionFrom(config, draws, rateLimitedForMs > 0);
  const latencyMs = latencyFrom(config.latencyMs, draws.latency);
  // Retry-After only goes with the answers that carry it (fault-injector.ts). A 429 of the rate
  // limit says when the next token comes, in whole seconds rounded up: a client that honours it is
  // never refused for the same reason twice in a row.
  if (action === 'rate-limit')
    return { latencyMs, action, retryAfterSeconds: Math.max(1, Math.ceil(rateLimitedForMs / 1000)) };
  return action === 'fail' ? { latencyMs, action, retryAfterSeconds: config.retryAfterSeconds } : { latencyMs, action };
}

/**
 * Precedence: rate limit, drop, fail, drop after commit. Each rate is the chance of its fault
 * among the requests the earlier rules let through, so any combination of rates is valid.
 */
export function actionFrom(config: FaultConfig, draws: FaultDraws, rateLimited: boolean): FaultAction {
  // A real service's limiter answers before anything else runs.
  if (rateLimited) return 'rate-limit';
  // `draw < rate`: with draws in [0, 1), rate 0 never strikes and rate 1 always does.
  if (draws.drop < config.dropRate) return 'drop';
  if (draws.fail < config.failRate) return 'fail';
  if (draws.dropAfterCommit < config.dropAfterCommitRate) return 'drop-after-commit';
  return 'none';
}

/** A fixed latency, or a whole number of milliseconds uniform over [min, max], inclusive. */
export function latencyFrom(latency: LatencyMs, draw: number): number {
  if (typeof latency === 'number') return latency;
  return latency.min + Math.floor(draw * (latency.max - latency.min + 1));
}

/**
 * The rate limit: a token bucket per API key, `perSecond` tokens a second on the sandbox clock,
 * holding at most `perSecond` (a quiet second buys a burst of one second's worth, no more). Returns
 * 0 when a token was taken, else the ms until the next one; a refused request takes none.
 * Deterministic given the `(nowMs, apiKey)` sequence; a clock moved back adds nothing. Per request:
 * one Map lookup and a few multiplications.
 */
export function rateLimiter(perSecond: number | undefined): (nowMs: number, apiKey: string) => number {
  if (perSecond === undefined) return () => 0;
  const buckets = new Map<string, TokenBucket>();
  return (nowMs, apiKey) => {
    let bucket = buckets.get(apiKey);
    if (bucket === undefined) {
      bucket = new TokenBucket(perSecond, perSecond, nowMs);
      buckets.set(apiKey, bucket);
    }
    return bucket.tryTake(nowMs);
  };
}

/**
 * `--capacity`: how many requests in scope are in progress at once. `take` returns how to give
 * the place back (once, whatever happens to the request), or undefined when every place is taken.
 * It takes no draws, so the faults of the n-th request stay the same under any capacity.
 */
export function capacityOf(capacity: number | undefined): { take(): (() => void) | undefined } | undefined {
  if (capacity === undefined) return undefined;
  let inProgress = 0;
  return {
    take() {
      if (inProgress >= capacity) return undefined;
      inProgress++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inProgress--;
      };
    },
  };
}

/**
 * Uniform values in [0, 1): one 32-bit output per value. pure-rand's integer distributions may
 * reject and draw again, which would let one decision consume more values than another and
 * shift every later one; this never does.
 */
export function uniformSource(seed: number): () => number {
  const generator = xoroshiro128plus(seed);
  return () => (generator.unsafeNext() >>> 0) / 2 ** 32;
}
