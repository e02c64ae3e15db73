/**
 * The seam between the server and fault injection: for each request to a service route (never a
 * control route), the injector decides what goes wrong. The server carries it out:
 * - `latencyMs`: the answer is written that long after the request arrived, the handler's work
 *   done within it (as a service's answer time includes its work); a refusal or a drop comes after it;
 * - `fail`: 503 `{message}` with `Retry-After`, before handling;
 * - `over-capacity`: 503 `{message}` with `Retry-After` at once, when `--capacity` requests are
 *   already in progress (a saturated server or load balancer);
 * - `rate-limit`: 429 `{message}` with `Retry-After` (when the caller's next token comes), before handling;
 * - `drop`: reset the connection before handling (nothing happened);
 * - `drop-after-commit`: handle and commit, then reset instead of answering (the client cannot
 *   know it succeeded).
 */
export type FaultAction = 'none' | 'fail' | 'over-capacity' | 'rate-limit' | 'drop' | 'drop-after-commit';

export interface FaultDecision {
  latencyMs: number;
  action: FaultAction;
  /** For `fail`, `over-capacity` and `rate-limit`: the `Retry-After` seconds to send. */
  retryAfterSeconds?: number;
  /** Under `--capacity`, for a request admitted: frees its place once its answer is written. */
  release?: () => void;
}

export interface RouteKey {
  method: string;
  /** The route table's pattern, e.g. `/v2/issuer/new_claim`. */
  pattern: string;
}

export interface FaultInjector {
  /** `apiKey`: whose allowance the rate limit counts the request against (the limit is per key). */
  decide(route: RouteKey, nowMs: number, apiKey?: string): FaultDecision;
}

/** No faults: what a sandbox does unless told otherwise. */
export const noFaults: FaultInjector = { decide: () => ({ latencyMs: 0, action: 'none' }) };
