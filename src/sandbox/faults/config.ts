import { z } from 'zod';
import type { RouteKey } from './fault-injector.js';

/**
 * The fault configuration (docs/sandbox.md, "Fault injection"): one shape for the CLI flags, the
 * `POST /_sandbox/faults` body and the `GET /_sandbox/faults` answer, validated here once.
 */

/** The seed feeds a 32-bit generator: seeds outside 0..2^32-1 would silently collide. */
export const maxSeed = 0xffff_ffff;

/** Ten minutes: longer than any client timeout, so a larger latency can only be a typo. */
export const maxLatencyMs = 600_000;
const milliseconds = z.number().int().min(0).max(maxLatencyMs);

export const latencySchema = z
  .union([
    milliseconds,
    z
      .strictObject({ min: milliseconds, max: milliseconds })
      .refine((range) => range.min <= range.max, { message: 'expected min no greater than max', path: ['max'] }),
  ])
  .describe(
    "milliseconds from a request's arrival to its answer, the work done within them: fixed, or drawn uniformly from {min, max} inclusive",
  );

const rate = (what: string) =>
  z.number().min(0).max(1).default(0).describe(`chance from 0 to 1 that a request in scope ${what}`);

const routeScopeSchema = z
  .string()
  .regex(
    /^(\*|GET|POST|PUT|DELETE) \/\S*$/,
    'expected "METHOD PATTERN" such as "POST /v2/issuer/new_claim" or "* /v2/issuer/claims/{claim_id}"',
  )
  .describe('a route of the route table, by its pattern; `*` for every method on it');

export const faultConfigSchema = z.strictObject({
  seed: z
    .number()
    .int()
    .min(0)
    .max(maxSeed)
    .default(1)
    .describe('seed of the generator: the same seed and requests give the same faults'),
  latencyMs: latencySchema.default(0),
  failRate: rate('is answered 503 with Retry-After before handling'),
  dropRate: rate('has its connection reset before handling'),
  dropAfterCommitRate: rate('is handled and committed, then has its connection reset'),
  rateLimitPerSecond: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      "requests in scope admitted per second per API key (a token bucket holding one second's worth); the " +
        'rest get 429 with Retry-After: the seconds until the next token, rounded up',
    ),
  capacity: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      'requests in scope the service holds at once; the next is answered 503 with Retry-After at once, as a saturated server or load balancer does',
    ),
  retryAfterSeconds: z
    .number()
    .int()
    .min(0)
    .max(86_400)
    .default(1)
    .describe('the Retry-After sent with an injected 503 (of --fail-rate or --capacity)'),
  routes: z.array(routeScopeSchema).optional().describe('the routes faulted; absent: every service route'),
});

export type FaultConfig = z.output<typeof faultConfigSchema>;
export type FaultConfigInput = z.input<typeof faultConfigSchema>;
export type LatencyMs = z.output<typeof latencySchema>;

/** What a sandbox does unless told otherwise: nothing goes wrong. */
export const defaultFaultConfig: FaultConfig = faultConfigSchema.parse({});

/** `"* /v2/issuer/claims/{claim_id}"` → does it cover this route? */
export function routeScopeMatches(scope: string, route: RouteKey): boolean {
  const [method, pattern] = splitScope(scope);
  return (method === '*' || method === route.method) && pattern === route.pattern;
}

/**
 * The scopes that name no service route: a typo would otherwise leave faults silently off, and
 * a test would pass that injected nothing. Control routes are never faulted, so they do not count.
 */
export function unknownRouteScopes(
  scopes: readonly string[],
  routes: readonly (RouteKey & { control?: boolean })[],
): string[] {
  const serviceRoutes = routes.filter((route) => route.control !== true);
  return scopes.filter((scope) => !serviceRoutes.some((route) => routeScopeMatches(scope, route)));
}

function splitScope(scope: string): [string, string] {
  const space = scope.indexOf(' ');
  return [scope.slice(0, space), scope.slice(space + 1)];
}

/**
 * A `--latency-ms` value: `"50"` (fixed) or `"20-80"` (a range, inclusive). Throws
 * "--latency-ms: expected …, got …".
 */
export function parseLatency(text: string): LatencyMs {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
  const fail = (expected: string) => new Error(`--latency-ms: expected ${expected}, got ${JSON.stringify(text)}`);
  if (!match) throw fail('milliseconds as N or MIN-MAX, e.g. 50 or 20-80');
  const min = Number(match[1]);
  const max = match[2] === undefined ? undefined : Number(match[2]);
  const latency = max === undefined ? min : { min, max };
  const parsed = latencySchema.safeParse(latency);
  if (!parsed.success) {
    throw fail(
      max !== undefined && min > max ? 'MIN no greater than MAX' : `whole milliseconds from 0 to ${maxLatencyMs}`,
    );
  }
  return parsed.data;
}

/**
 * The fault flags of `bulk-disputes sandbox` as commander hands them over (strings, camelCased;
 * `--fault-route` repeatable). Absent flags take the defaults.
 */
export interface FaultFlags {
  seed?: string;
  latencyMs?: string;
  failRate?: string;
  dropRate?: string;
  dropAfterCommitRate?: string;
  rateLimit?: string;
  capacity?: string;
  retryAfterSeconds?: string;
  faultRoute?: readonly string[];
}

/** Flag, value placeholder and help line for each of FaultFlags, for the CLI to declare. */
export const faultFlagHelp: readonly { flags: string; description: string }[] = [
  {
    flags: '--seed <n>',
    description:
      `seed of the fault generator and of the paths of --outcomes, 0 to ${maxSeed}: the same seed and ` +
      `requests replay the same faults, the same seed and case ids the same paths (default 1)`,
  },
  {
    flags: '--latency-ms <ms>',
    description:
      'answer each request this long after it arrived, its work done within: N, or MIN-MAX drawn uniformly (default 0)',
  },
  {
    flags: '--fail-rate <rate>',
    description: 'chance from 0 to 1 of a 503 with Retry-After, before handling (default 0)',
  },
  {
    flags: '--rate-limit <n>',
    description:
      'requests admitted per second per API key, bursts up to n (token bucket); the rest get 429 with ' +
      'Retry-After, the seconds until the next token rounded up (default: no limit)',
  },
  { flags: '--drop-rate <rate>', description: 'chance from 0 to 1 of a connection reset before handling (default 0)' },
  {
    flags: '--drop-after-commit-rate <rate>',
    description: 'chance from 0 to 1 of a connection reset after the write is committed (default 0)',
  },
  {
    flags: '--capacity <n>',
    description:
      'requests held at once (a saturated server): the next gets 503 with Retry-After at once (default: no limit)',
  },
  {
    flags: '--retry-after-seconds <s>',
    description:
      'Retry-After sent with injected 503s (default 1; a 429 of --rate-limit says when the next token comes)',
  },
  {
    flags: '--fault-route <route>',
    description:
      'fault only this route, e.g. "POST /v2/issuer/new_claim" or "* /v2/issuer/claims/{claim_id}" (repeatable; default: every service route)',
  },
];

/**
 * Turns the fault flags into a configuration, throwing "--fail-rate: expected a number from 0
 * to 1, got 2" at the first bad one. With `serviceRoutes` (the route table), a `--fault-route`
 * that names no service route is refused too.
 */
export function faultConfigFromFlags(
  flags: FaultFlags,
  serviceRoutes?: readonly (RouteKey & { control?: boolean })[],
): FaultConfig {
  const routes = flags.faultRoute?.length
    ? flags.faultRoute.map((scope) => checkedScope(scope, serviceRoutes))
    : undefined;
  const config: FaultConfigInput = {
    seed: optional(flags.seed, (text) => wholeNumber('--seed', text, 0, maxSeed)),
    latencyMs: optional(flags.latencyMs, parseLatency),
    failRate: optional(flags.failRate, (text) => fraction('--fail-rate', text)),
    dropRate: optional(flags.dropRate, (text) => fraction('--drop-rate', text)),
    dropAfterCommitRate: optional(flags.dropAfterCommitRate, (text) => fraction('--drop-after-commit-rate', text)),
    rateLimitPerSecond: optional(flags.rateLimit, (text) =>
      wholeNumber('--rate-limit', text, 1, Number.MAX_SAFE_INTEGER),
    ),
    capacity: optional(flags.capacity, (text) => wholeNumber('--capacity', text, 1, Number.MAX_SAFE_INTEGER)),
    retryAfterSeconds: optional(flags.retryAfterSeconds, (text) =>
      wholeNumber('--retry-after-seconds', text, 0, 86_400),
    ),
    routes,
  };
  // Every value was checked above; the schema fills in the defaults.
  return faultConfigSchema.parse(config);
}

function optional<Value>(text: string | undefined, parse: (text: string) => Value): Value | undefined {
  return text === undefined ? undefined : parse(text);
}

function fraction(flag: string, text: string): number {
  const value = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 0 && value <= 1)) throw new Error(`${flag}: expected a number from 0 to 1, got ${text}`);
  return value;
}

function wholeNumber(flag: string, text: string, min: number, max: number): number {
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) {
    const range = max === Number.MAX_SAFE_INTEGER ? `from ${min} up` : `from ${min} to ${max}`;
    throw new Error(`${flag}: expected a whole number ${range}, got ${text}`);
  }
  return value;
}

function checkedScope(scope: string, serviceRoutes: readonly (RouteKey & { control?: boolean })[] | undefined): string {
  const trimmed = scope.trim().replace(/\s+/g, ' ');
  if (!routeScopeSchema.safeParse(trimmed).success) {
    throw new Error(
      `--fault-route: expected "METHOD PATTERN" such as "POST /v2/issuer/new_claim", got ${JSON.stringify(scope)}`,
    );
  }
  if (serviceRoutes && unknownRouteScopes([trimmed], serviceRoutes).length > 0) {
    throw new Error(
      `--fault-route: expected a service route of the sandbox such as "POST /v2/issuer/new_claim", got ${JSON.stringify(scope)}`,
    );
  }
  return trimmed;
}
