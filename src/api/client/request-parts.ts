import type { z } from 'zod';
import { RequestInvalidError } from '../errors.js';
import { checkedParse } from '../schemas/precompiled.js';
import { identifier } from '../schemas/primitives.js';
import { issuesOf } from './response-body.js';
import type { ApiRequest, ApiResult, HttpMethod, RequestBody, Transport } from './transport.js';

/**
 * Builds the parts of a request strictly, before anything is sent: a body or query that breaks
 * the service's interface (the wire schemas) is a RequestInvalidError with dot-paths, and 0 attempts.
 */

export interface Route {
  method: HttpMethod;
  path: string;
}

/**
 * One operation of the service's interface as the client sends it, a line of the interface's
 * table: where it is (the path a template: `/v2/issuer/claims/{claim_id}`), whether sending it
 * twice does no more than once, and what it answers.
 */
export interface Operation<Data> {
  method: HttpMethod;
  path: string;
  repeatable: ApiRequest<Data>['repeatable'];
  caseScoped?: ApiRequest<Data>['caseScoped'];
  response: ApiRequest<Data>['response'];
}

/** What one call of an operation brings; the route, its parameters checked, is built here. */
export interface RequestParts {
  /** The path template's parameters: `{ claim_id: claimId }` for `/v2/issuer/claims/{claim_id}`. */
  params?: Record<string, string>;
  /** Built once the route is known, so that a problem names it: `jsonOf(schema, body)`. */
  body?: (route: Route) => RequestBody;
  /** Likewise: `queryOf(schema, query)`. */
  query?: (route: Route) => NonNullable<ApiRequest<unknown>['query']>;
}

/** Sends one operation's request, its parts checked first (a problem is a RequestInvalidError, 0 attempts). */
export async function endpoint<Data>(
  transport: Transport,
  { method, path, ...rest }: Operation<Data>,
  { params, body, query }: RequestParts = {},
): Promise<ApiResult<Data>> {
  const route = routeFor(method, path, params);
  return transport.send({
    ...route,
    ...(body && { body: body(route) }),
    ...(query && { query: query(route) }),
    ...rest,
  });
}

/** A JSON body for `endpoint`, checked against its schema unless it is a CheckedBody of that schema. */
export function jsonOf<Schema extends z.ZodType>(
  schema: Schema,
  input: z.input<Schema> | CheckedBody<Schema>,
): (route: Route) => RequestBody {
  return (route) => jsonBody(schema, input, route);
}

/** A query for `endpoint`, checked against its schema. */
export function queryOf<Schema extends z.ZodType>(
  schema: Schema,
  input: z.input<Schema>,
): (route: Route) => z.output<Schema> {
  return (route) => checked(schema, input, route);
}

export function jsonBody<Schema extends z.ZodType>(
  schema: Schema,
  input: z.input<Schema> | CheckedBody<Schema>,
  route: Route,
): RequestBody {
  // Checked by the caller against this very schema: sent as it is, not checked a second time.
  if (input instanceof CheckedBody && input.schema === schema) return input.body;
  const data = checked(schema, input, route);
  return { contentType: 'application/json', bytes: Buffer.from(JSON.stringify(data)) };
}

/**
 * A JSON body already checked against its schema and serialised: for a caller that checks a body
 * itself (to say which of its rows a problem is on) and then sends it, so it is not checked twice.
 * Only `check` and `assembled` make one, so a CheckedBody always holds what its schema accepts.
 */
export class CheckedBody<Schema extends z.ZodType> {
  private constructor(
    readonly schema: Schema,
    readonly body: RequestBody,
  ) {}

  /**
   * JSON the caller assembled from parts each checked against this schema before, having checked
   * itself what only the whole shows (import/claim/wire-body.ts): the caller answers for the
   * schema accepting it. Not checked again here, which is the point.
   */
  static assembled<Schema extends z.ZodType>(schema: Schema, bytes: Buffer): CheckedBody<Schema> {
    return new CheckedBody(schema, { contentType: 'application/json', bytes });
  }

  static check<Schema extends z.ZodType>(
    schema: Schema,
    input: z.input<Schema>,
  ): { ok: true; checked: CheckedBody<Schema> } | { ok: false; error: z.ZodError } {
    // Precompiled: a claim's body is checked once per claim; the JSON keeps the input's key order.
    const parsed = checkedParse(schema, input);
    if (!parsed.success) return { ok: false, error: parsed.error };
    const body = { contentType: 'application/json', bytes: Buffer.from(JSON.stringify(parsed.data)) };
    return { ok: true, checked: new CheckedBody(schema, body) };
  }
}

export function checked<Schema extends z.ZodType>(schema: Schema, input: unknown, route: Route): z.output<Schema> {
  // zod's own parse: its output has the schema's key order (a query string keeps it).
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new RequestInvalidError(issuesOf(parsed.error), { ...route, attempts: 0 });
  return parsed.data;
}

/**
 * A route with its path parameters checked and percent-encoded:
 * `routeFor('POST', '/v2/issuer/claims/{claim_id}/file', { claim_id })`.
 */
export function routeFor(method: HttpMethod, template: string, params: Record<string, string> = {}): Route {
  const path = template.replace(/\{(\w+)\}/g, (_match, name: string) =>
    idSegment(name, params[name] ?? '', { method, path: template }),
  );
  return { method, path };
}

/** A path parameter: checked as an id (1..126 characters), then percent-encoded. */
export function idSegment(name: string, value: string, route: Route): string {
  const parsed = identifier.safeParse(value);
  if (!parsed.success) {
    throw new RequestInvalidError(
      [{ path: name, message: `expected an id of 1 to 126 characters, got ${JSON.stringify(value.slice(0, 140))}` }],
      { ...route, attempts: 0 },
    );
  }
  return encodeURIComponent(value);
}
