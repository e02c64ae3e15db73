import { uniformSource } from '../../src/sandbox/faults/seeded-faults.js';

/**
 * How big the reliability suite runs. At full size (2,000 claims, ten kills, 300 fuzz runs) it
 * takes a few minutes on a 2-core machine, so `npm test` runs it in full, as does
 * `npm run test:reliability`. BULK_DISPUTES_RELIABILITY=reduced shrinks it for a quick local loop.
 */
export const full = process.env.BULK_DISPUTES_RELIABILITY !== 'reduced';

/** `fullValue` normally, `reducedValue` with BULK_DISPUTES_RELIABILITY=reduced. */
export function sized<T>(fullValue: T, reducedValue: T): T {
  return full ? fullValue : reducedValue;
}

/** A seed from BULK_DISPUTES_SEED when given (to replay a failure), else `fallback`. */
export function seedFrom(fallback: number): number {
  const given = process.env.BULK_DISPUTES_SEED;
  if (given === undefined || given === '') return fallback;
  const seed = Number(given);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffff_ffff)
    throw new Error(`BULK_DISPUTES_SEED: expected a whole number from 0 to 4294967295, got ${JSON.stringify(given)}`);
  return seed;
}

/** Uniform values in [0, 1) from a seed (the sandbox's own generator), so kill moments replay. */
export const seededRandom = uniformSource;
