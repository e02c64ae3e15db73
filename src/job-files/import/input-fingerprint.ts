import { formatObjectAddress } from '../../storage/object-address.js';
import type { ObjectIdentity } from '../../storage/object-store.js';

/**
 * What a journal's fingerprint binds of an object input, in the string a local file's sha256
 * takes (journals made before keep their type and still match): the address, then the ETag,
 * the version when the bucket keeps versions, and the size. Other bytes at the same key have
 * another ETag, so a later run with them is refused as a changed file is (docs/import.md, "Resume").
 */
export function objectFingerprint(identity: ObjectIdentity): string {
  const version = identity.versionId === undefined ? '' : ` version=${identity.versionId}`;
  return `${formatObjectAddress(identity)} etag=${identity.etag}${version} size=${String(identity.size)}`;
}

/** An object's fingerprint read back: undefined for a file's sha256. */
export interface ObjectFingerprint {
  readonly address: string;
  readonly etag: string;
  readonly version: string | undefined;
  readonly size: string;
}

export function parseObjectFingerprint(text: string | undefined): ObjectFingerprint | undefined {
  // The key may hold spaces; the ETag, the version and the size never do.
  const found = /^(s3:\/\/.+) etag=(\S*)(?: version=(\S+))? size=(\d+)$/.exec(text ?? '');
  if (found === null) return undefined;
  return { address: found[1] ?? '', etag: found[2] ?? '', version: found[3], size: found[4] ?? '' };
}

/** What differs between two objects' fingerprints, in words: `ETag "a" vs "b", size 10 vs 12`. */
export function objectChanges(then: ObjectFingerprint, now: ObjectFingerprint): string {
  const changes: string[] = [];
  if (then.address !== now.address) changes.push(`${then.address} vs ${now.address}`);
  if (then.etag !== now.etag) changes.push(`ETag ${then.etag} vs ${now.etag}`);
  if (then.version !== now.version) changes.push(`version ${then.version ?? 'none'} vs ${now.version ?? 'none'}`);
  if (then.size !== now.size) changes.push(`size ${then.size} vs ${now.size} bytes`);
  return changes.join(', ');
}
