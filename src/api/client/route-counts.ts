import type { AnswerKind } from './answer-kind.js';

/**
 * Requests by route and answer, for the job's metrics (docs/monitoring.md): a route is the method
 * and the path with each id in it replaced by `{id}`, so that a night of ten thousand claims is
 * a handful of routes, not ten thousand.
 */
export interface RouteAnswerCount {
  /** `POST /v2/issuer/claims/{id}/file` */
  route: string;
  answer: AnswerKind;
  requests: number;
}

/**
 * The fixed words of the service's paths (openapi/claims-service.json, docs/interface.md): any
 * other segment is an id. A word missing here only makes a route read `{id}` where a word was.
 */
const pathWords = new Set([
  'v1',
  'v2',
  'issuer',
  'cases',
  'claims',
  'events',
  'files',
  'file',
  'new_claim',
  'review',
  'run_workflow',
  'withdraw',
]);

/** `POST /v2/issuer/claims/claim_1/file?x=1` → `POST /v2/issuer/claims/{id}/file`. */
export function routeOf(method: string, path: string): string {
  const [pathOnly = ''] = path.split('?');
  const segments = pathOnly.split('/').map((segment) => (segment === '' || pathWords.has(segment) ? segment : '{id}'));
  return `${method} ${segments.join('/')}`;
}

export class RouteCounts {
  private readonly counts = new Map<string, RouteAnswerCount>();

  count(method: string, path: string, answer: AnswerKind): void {
    const route = routeOf(method, path);
    const key = `${route} ${answer}`;
    const found = this.counts.get(key);
    if (found === undefined) this.counts.set(key, { route, answer, requests: 1 });
    else found.requests++;
  }

  /** A copy, in the order first seen. */
  list(): RouteAnswerCount[] {
    return [...this.counts.values()].map((entry) => ({ ...entry }));
  }
}
