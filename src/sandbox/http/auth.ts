import type { Environment } from '../store/records.js';
import { SandboxHttpError, simpleError } from './errors.js';

/**
 * HTTP Basic with the key as the username and an empty password (docs/sandbox.md, "Keys and
 * environments"). `test_` keys reach the sandbox environment, every other configured key the
 * production environment. Missing, malformed or unknown credentials: 401 `{message}`.
 */
export function environmentOfKey(apiKey: string): Environment {
  return apiKey.startsWith('test_') ? 'sandbox' : 'production';
}

/** Who is calling: the key (the rate limit counts per key) and the environment it reaches. */
export interface Caller {
  apiKey: string;
  environment: Environment;
}

export function authenticate(authorization: string | undefined, keys: ReadonlySet<string>): Caller | SandboxHttpError {
  if (authorization === undefined) return unauthorized('missing API key: send it as the Basic username');
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!match?.[1]) return unauthorized('malformed Authorization header: expected Basic credentials');
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return unauthorized('malformed Authorization header: expected the API key followed by a colon');
  const apiKey = decoded.slice(0, colon);
  if (!keys.has(apiKey)) return unauthorized('invalid API key');
  return { apiKey, environment: environmentOfKey(apiKey) };
}

/**
 * No `WWW-Authenticate` challenge: with one, a browser asks for a key in its login dialog and
 * then sends it with every request to the sandbox, a hostile page's included
 * (docs/sandbox.md, "What a web page cannot do to a running sandbox").
 */
function unauthorized(message: string): SandboxHttpError {
  return simpleError(401, message);
}

/** How many distinct accepted Authorization headers `authenticator` remembers. */
const maxRememberedHeaders = 64;

/**
 * `authenticate` for one set of keys, remembering the headers it accepted (a client sends the same
 * header with every request; decoding it each time cost more than routing). Only accepted headers
 * are remembered, and at most `maxRememberedHeaders` of them, so no caller can grow the memory: a
 * header past the limit is decoded every time, as before.
 */
export function authenticator(
  keys: ReadonlySet<string>,
): (authorization: string | undefined) => Caller | SandboxHttpError {
  const accepted = new Map<string, Readonly<Caller>>();
  return (authorization) => {
    const known = authorization === undefined ? undefined : accepted.get(authorization);
    if (known !== undefined) return known;
    const caller = authenticate(authorization, keys);
    if (authorization !== undefined && !(caller instanceof SandboxHttpError) && accepted.size < maxRememberedHeaders)
      accepted.set(authorization, Object.freeze(caller));
    return caller;
  };
}
