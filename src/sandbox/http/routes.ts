import type { IncomingMessage } from 'node:http';
import { validationError } from './errors.js';
import type { SandboxCore } from '../core.js';
import type { Environment } from '../store/records.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface HandlerCall {
  core: SandboxCore;
  environment: Environment;
  params: Record<string, string>;
  query: URLSearchParams;
  request: IncomingMessage;
  /** The JSON body, read on demand (uploads read the stream themselves). */
  json(): Promise<unknown>;
  /** The sandbox's route table, for handlers that reason about routes (fault scopes). */
  routes: readonly Route[];
}

export interface Reply {
  status: number;
  /** Written as JSON; a `JsonText` is written as it is. */
  body: unknown;
}

/**
 * A body already serialised, written byte for byte: new_claim answers with the case texts it has
 * just stored, rather than parsing them back to serialise them again.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

export interface Route {
  method: HttpMethod;
  /** `/v2/issuer/claims/{claim_id}/file`: each `{name}` is one path segment. */
  pattern: string;
  handler: (call: HandlerCall) => Promise<Reply>;
  /** Served only when the control prefix is enabled. */
  control?: boolean;
  /**
   * The body the route reads: JSON (or none) unless it says multipart, which the route checks
   * itself (files/receive-upload.ts).
   */
  body?: 'multipart';
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** Compiles the table once; matching is a scan of a few dozen regular expressions. */
export function routerFor(
  routes: Route[],
): (method: string, path: string) => RouteMatch | 'method-not-allowed' | undefined {
  const compiled = routes.map((route) => {
    const names: string[] = [];
    const source = route.pattern.replace(/\{(\w+)\}/g, (_match, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { route, names, regex: new RegExp(`^${source}$`) };
  });
  return (method, path) => {
    let pathMatched = false;
    for (const { route, names, regex } of compiled) {
      const match = regex.exec(path);
      if (!match) continue;
      pathMatched = true;
      if (route.method !== method) continue;
      const params = Object.fromEntries(
        names.map((name, index) => [name, decodePathSegment(name, match[index + 1] ?? '')]),
      );
      return { route, params };
    }
    return pathMatched ? 'method-not-allowed' : undefined;
  };
}

/** A malformed percent-encoding (`%E0%A4%A`) is the client's mistake: 400, never a crash. */
function decodePathSegment(name: string, segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw validationError('invalid path parameter', [
      {
        code: 'parameter_invalid',
        details: { field: name },
        message: `${name}: expected a percent-encoded id, got ${JSON.stringify(segment)}`,
      },
    ]);
  }
}
