import { RefusalError } from '../../errors/coded-error.js';

/**
 * Where an evidence cell's address may point (docs/mappings.md, "Evidence from object storage and
 * links"): the mapping's `evidence_sources`, and the s3:// evidence folder, which the operator
 * named and so allowed.
 */

/** Keys of a bucket under a prefix: `''` for the whole bucket, else ending with `/`. */
export interface BucketPrefix {
  readonly bucket: string;
  readonly prefix: string;
}

/** The mapping's `evidence_sources` as its schema checked them (src/mapping/evidence-sources.ts). */
export interface EvidenceSourcesSetting {
  readonly buckets?: readonly string[] | undefined;
  readonly hosts?: readonly string[] | undefined;
}

export interface EvidenceSources {
  /** `--evidence-dir s3://…`: relative cells are keys under it. */
  readonly folder: BucketPrefix | undefined;
  readonly buckets: readonly BucketPrefix[];
  /** `host` (port 443) or `host:port`, lower case. */
  readonly hosts: ReadonlySet<string>;
}

/** `--evidence-dir s3://…` that is not a bucket and key prefix: refused before anything is read (exit 2). */
export class EvidencePrefixError extends RefusalError {
  readonly code = 'EVIDENCE_DIR';
}

const bucketPattern = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * `s3://bucket`, `s3://bucket/` or `s3://bucket/some/prefix(/)`: a key prefix always read as a
 * folder (`/` added), so that `s3://b/evidence` never allows `evidence-old/`.
 */
export function parseEvidencePrefix(text: string): BucketPrefix {
  const found = /^s3:\/\/([^/]*)(?:\/(.*))?$/.exec(text);
  const bucket = found?.[1] ?? '';
  const rest = found?.[2] ?? '';
  const segments = rest === '' ? [] : rest.replace(/\/$/, '').split('/');
  if (found === null || !bucketPattern.test(bucket) || segments.some((part) => ['', '.', '..'].includes(part)))
    throw new EvidencePrefixError(
      '--evidence-dir: expected s3://bucket/key-prefix/ (a bucket of 3 to 63 lower-case letters, digits, dots ' +
        `and hyphens, then a prefix without empty, "." or ".." segments), got ${JSON.stringify(text)}`,
    );
  return { bucket, prefix: segments.length === 0 ? '' : `${segments.join('/')}/` };
}

/** What the mapping allows, with the s3:// evidence folder when there is one. */
export function evidenceSourcesOf(
  setting: EvidenceSourcesSetting | undefined,
  folder: BucketPrefix | undefined,
): EvidenceSources {
  return {
    folder,
    buckets: (setting?.buckets ?? []).map((entry) => {
      const slash = entry.indexOf('/');
      return slash === -1
        ? { bucket: entry, prefix: '' }
        : { bucket: entry.slice(0, slash), prefix: entry.slice(slash + 1) };
    }),
    // `host:443` is the host itself: a URL never shows its default port.
    hosts: new Set((setting?.hosts ?? []).map((host) => host.replace(/:443$/, ''))),
  };
}

/** Whether `bucket`/`key` is under the evidence folder or a listed bucket and prefix. */
export function allowsObject(sources: EvidenceSources, bucket: string, key: string): boolean {
  const under = (place: BucketPrefix | undefined) =>
    place !== undefined && place.bucket === bucket && key.startsWith(place.prefix) && key !== place.prefix;
  return under(sources.folder) || sources.buckets.some(under);
}

/** Every bucket and prefix objects may be read under: the ones a run checks its credentials on. */
export function objectPlaces(sources: EvidenceSources): BucketPrefix[] {
  return [...(sources.folder === undefined ? [] : [sources.folder]), ...sources.buckets];
}

export function formatPlace(place: BucketPrefix): string {
  return `s3://${place.bucket}/${place.prefix}`;
}
