import { z } from 'zod';
import { RefusalError } from '../errors/coded-error.js';

/**
 * Which service a job was run against: the base URL as the user gave it, normalised,
 * or the embedded sandbox's data file, and the key's environment. A journal or an export bookmark
 * records it, so that a rehearsal's journal can never make the real run skip its claims. The key
 * itself is never part of it: a rotated key of the same environment is the same service.
 */

/** `test_` keys select the service's test environment, any other key the live one (docs/sandbox.md, "Keys and environments"). */
export type KeyEnvironment = 'test' | 'live';

export type ServiceIdentity =
  | { readonly kind: 'url'; readonly baseUrl: string; readonly environment: KeyEnvironment }
  | { readonly kind: 'embedded-sandbox'; readonly db: string; readonly environment: KeyEnvironment };

/** The error's message names both services and the ways out; the CLI maps it to exit 2 (nothing sent). */
export class ServiceMismatchError extends RefusalError {
  readonly code = 'SERVICE_MISMATCH';
  override readonly name = 'ServiceMismatchError';
}

export function keyEnvironmentOf(apiKey: string): KeyEnvironment {
  return apiKey.startsWith('test_') ? 'test' : 'live';
}

/** A service at a base URL, as the client will reach it. */
export function serviceAt(baseUrl: string, apiKey: string): ServiceIdentity {
  return { kind: 'url', baseUrl: normaliseBaseUrl(baseUrl), environment: keyEnvironmentOf(apiKey) };
}

/** The embedded sandbox: its address is a new port each run, so it is known by its data file (absolute). */
export function embeddedSandbox(db: string, apiKey: string): ServiceIdentity {
  return { kind: 'embedded-sandbox', db, environment: keyEnvironmentOf(apiKey) };
}

/**
 * Scheme and host in lower case, the scheme's default port dropped, the path prefix without its
 * trailing slashes: `HTTPS://Claims.Example.com:443/api/` and `https://claims.example.com/api` are
 * one service. A URL that does not parse is kept as given (the client refuses it with its own message).
 */
export function normaliseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return baseUrl.trim();
  }
  // WHATWG URL lower-cases the scheme and host and drops a default port already.
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

export function sameService(left: ServiceIdentity, right: ServiceIdentity): boolean {
  return describeService(left) === describeService(right);
}

/** For people and for comparison: `https://claims.example.com (live key)`, `the embedded sandbox at /srv/sandbox.db (test key)`. */
export function describeService(service: ServiceIdentity): string {
  const where = service.kind === 'url' ? service.baseUrl : `the embedded sandbox at ${service.db}`;
  return `${where} (${service.environment} key)`;
}

/** As a journal or a state file keeps it. */
export function serialiseService(service: ServiceIdentity): string {
  return JSON.stringify(service);
}

/** A recorded service, or undefined when nothing usable was recorded. */
export function parseService(text: string | undefined): ServiceIdentity | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return serviceFrom(value);
}

/** A recorded service from an already parsed value (a state file's field), or undefined. */
/** A service identity as a journal records it (JSON). */
export const serviceIdentitySchema: z.ZodType<ServiceIdentity> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('url'), baseUrl: z.string(), environment: z.enum(['test', 'live']) }),
  z.object({ kind: z.literal('embedded-sandbox'), db: z.string(), environment: z.enum(['test', 'live']) }),
]);

export function serviceFrom(value: unknown): ServiceIdentity | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, baseUrl, db, environment } = value as Record<string, unknown>;
  if (environment !== 'test' && environment !== 'live') return undefined;
  if (kind === 'url' && typeof baseUrl === 'string') return { kind, baseUrl, environment };
  if (kind === 'embedded-sandbox' && typeof db === 'string') return { kind, db, environment };
  return undefined;
}

/**
 * What a run against `current` finds recorded: the same service, none yet (a new file, or one made
 * before services were recorded: the caller tells them apart), or another one.
 */
export type ServiceVerdict =
  | { readonly kind: 'same' }
  | { readonly kind: 'unrecorded' }
  | { readonly kind: 'other'; readonly recorded: ServiceIdentity };

export function compareService(recorded: ServiceIdentity | undefined, current: ServiceIdentity): ServiceVerdict {
  if (recorded === undefined) return { kind: 'unrecorded' };
  return sameService(recorded, current) ? { kind: 'same' } : { kind: 'other', recorded };
}
