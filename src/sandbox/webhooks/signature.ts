import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The sandbox's webhook signature. The service does not publish one (docs/sandbox.md, "Webhooks"),
 * so this is our own, on the Stripe scheme:
 *
 *   bulk-disputes-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
 *
 * The timestamp is inside the signed string, so a captured delivery cannot be replayed later
 * with a fresh `t`; the receiver refuses timestamps outside its tolerance. Pure: the clock is
 * passed in.
 */

export const signatureHeader = 'bulk-disputes-signature';

/** Stripe's default: five minutes either way absorbs clock skew, not a replay hours later. */
export const defaultToleranceSeconds = 300;

export function signPayload(secret: string, timestampSeconds: number, body: string | Buffer): string {
  return `t=${timestampSeconds},v1=${hmacHex(secret, timestampSeconds, body)}`;
}

/**
 * True when `header` carries a `v1` signature of `body` made with `secret`, and its timestamp is
 * within `toleranceSeconds` of `nowSeconds`. `body` must be the raw bytes as received: a body
 * parsed and serialised again may differ by a space and fail.
 */
export function verifySignature(
  secret: string,
  header: string | undefined,
  body: string | Buffer,
  nowSeconds: number,
  toleranceSeconds = defaultToleranceSeconds,
): boolean {
  const parsed = parseSignatureHeader(header ?? '');
  if (parsed === undefined) return false;
  // Checked before any HMAC: an old delivery is refused whatever its signature.
  if (Math.abs(nowSeconds - parsed.timestampSeconds) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, parsed.timestampSeconds, body), 'utf8');
  // Several v1 entries are allowed (a receiver may be handed one per secret during a rotation).
  return parsed.signatures.some((candidate) => {
    const given = Buffer.from(candidate, 'utf8');
    // timingSafeEqual needs equal lengths; the length of a hex digest is no secret.
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export interface ParsedSignature {
  timestampSeconds: number;
  signatures: string[];
}

/** `t=…,v1=…[,v1=…]`; unknown keys (a future `v2`) are ignored. Undefined when unusable. */
export function parseSignatureHeader(header: string): ParsedSignature | undefined {
  let timestampSeconds: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't' && /^\d+$/.test(value)) timestampSeconds = Number(value);
    if (key === 'v1' && /^[0-9a-f]+$/.test(value)) signatures.push(value);
  }
  if (timestampSeconds === undefined || signatures.length === 0) return undefined;
  return { timestampSeconds, signatures };
}

function hmacHex(secret: string, timestampSeconds: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.`).update(body).digest('hex');
}
