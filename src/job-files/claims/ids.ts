import { createHash } from 'node:crypto';

/**
 * Deterministic ids, so that no claim is ever created twice (docs/import.md, "No duplicates"):
 * the same claim key gives the same claim id in every run, so a re-sent create is recognised
 * (409, or found by a retrieve) instead of making a second claim.
 */

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * `clm_` and 24 hex digits of the key's sha256: 96 bits, no collision in any real export. With the
 * mapping's `claim.id_prefix`, `clm_PREFIX_` and the hash of prefix and key: two sources or two
 * years whose keys overlap (references restarting each year) never meet at one id.
 */
export function derivedClaimId(claimKey: string, prefix?: string): string {
  // Without a prefix, byte for byte the id of every run before `claim.id_prefix` existed: journals
  // and claims made then keep their ids.
  if (prefix === undefined) return `clm_${digest(claimKey).slice(0, 24)}`;
  // The prefix is hashed too, so the hex differs from the unprefixed id's (not just the label).
  return `clm_${prefix}_${digest(`${prefix}\n${claimKey}`).slice(0, 24)}`;
}

/** The n-th case (1-based) of a claim, in the order its rows appear in the input. */
export function derivedCaseId(claimId: string, ordinal: number): string {
  return `${claimId}-${ordinal + 1}`;
}

export interface Shard {
  /** 1-based, as in `--shard 2/4`. */
  index: number;
  count: number;
}

/**
 * Whether a claim belongs to this shard: by a hash of its key, so n processes split one export with
 * no coordination and no overlap (docs/import.md, "Sharding"). Rows without a key belong to
 * shard 1, so that across all shards every row is reported exactly once.
 */
export function inShard(claimKey: string | undefined, shard: Shard | undefined): boolean {
  if (shard === undefined || shard.count === 1) return true;
  if (claimKey === undefined) return shard.index === 1;
  return (Number.parseInt(digest(claimKey).slice(0, 8), 16) % shard.count) + 1 === shard.index;
}
