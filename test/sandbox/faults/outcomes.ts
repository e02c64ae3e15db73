import { createFaultInjector } from '../../../src/sandbox/faults/seeded-faults.js';
import type { FaultConfigInput } from '../../../src/sandbox/faults/config.js';
import type { FaultAction, RouteKey } from '../../../src/sandbox/faults/fault-injector.js';
import type { TestSandbox } from '../../helpers/sandbox.js';

/** What a client sees of one request: the status, or `reset` when the connection was cut. */
export type Outcome = number | 'reset';

/** One request through real HTTP; a reset connection is an outcome, any other failure is thrown. */
export async function outcomeOf(sandbox: TestSandbox, method: string, path: string, body?: unknown): Promise<Outcome> {
  try {
    return (await sandbox.request(method, path, body)).status;
  } catch (error) {
    // fetch reports a cut connection as TypeError "fetch failed", the socket error as its cause.
    if (error instanceof TypeError && error.message === 'fetch failed') return 'reset';
    throw error;
  }
}

/** What the server makes of each action, for a request whose handler answers `handledStatus`. */
export function expectedOutcome(action: FaultAction, handledStatus: number): Outcome {
  const outcomes: Record<FaultAction, Outcome> = {
    none: handledStatus,
    fail: 503,
    'over-capacity': 503,
    'rate-limit': 429,
    drop: 'reset',
    'drop-after-commit': 'reset',
  };
  return outcomes[action];
}

/** The actions a fresh injector of this configuration decides for `count` requests to `route`. */
export function plannedActions(config: FaultConfigInput, route: RouteKey, count: number, nowMs = 0): FaultAction[] {
  const injector = createFaultInjector(config);
  return Array.from({ length: count }, () => injector.decide(route, nowMs).action);
}
