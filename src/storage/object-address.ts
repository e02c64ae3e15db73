import { RefusalError } from '../errors/coded-error.js';

/** An object in an S3-compatible store, as a user writes it: `s3://bucket/key`. */
export interface ObjectAddress {
  readonly bucket: string;
  readonly key: string;
}

/** An address that is not `s3://bucket/key`: refused before anything is read (exit 2). */
export class ObjectAddressError extends RefusalError {
  readonly code = 'OBJECT_ADDRESS';
}

/** Whether a path names an object rather than a file. */
export function isObjectAddress(path: string): boolean {
  return path.startsWith('s3://');
}

/**
 * `s3://bucket/key` read as S3 names them: the bucket a DNS-style name (3 to 63 characters of
 * lower-case letters, digits, dots and hyphens), the key everything after the first slash, as it is.
 */
export function parseObjectAddress(text: string, what = 'the object'): ObjectAddress {
  const found = /^s3:\/\/([^/]+)\/(.+)$/.exec(text);
  const bucket = found?.[1] ?? '';
  if (found === null || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new ObjectAddressError(
      `${what}: expected s3://bucket/key (a bucket of 3 to 63 lower-case letters, digits, dots and hyphens, then a key), got ${JSON.stringify(text)}`,
    );
  return { bucket, key: found[2] ?? '' };
}

export function formatObjectAddress(address: ObjectAddress): string {
  return `s3://${address.bucket}/${address.key}`;
}

/** The "folder" an object is in, as a user would name it: `s3://bucket/exports/` for `s3://bucket/exports/night.csv`. */
export function objectFolder(address: ObjectAddress): string {
  const slash = address.key.lastIndexOf('/');
  return `s3://${address.bucket}/${slash < 0 ? '' : address.key.slice(0, slash + 1)}`;
}
