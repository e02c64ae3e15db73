import { parseEvidenceCell } from '../resolve-path.js';
import { notAllowed, type EvidenceFailure } from '../errors.js';
import { allowsObject, formatPlace, type EvidenceSources } from './sources.js';

/**
 * What an evidence cell names, judged on its text alone (docs/mappings.md, "Evidence from object
 * storage and links"): a file in the evidence folder (as a path, or as a key under an s3:// one),
 * an object in a bucket the mapping lists, a document on a host it lists; or why none may be read.
 * Nothing is fetched to decide.
 */
export type EvidenceTarget =
  | { readonly kind: 'file'; readonly segments: readonly string[] }
  | { readonly kind: 'object'; readonly bucket: string; readonly key: string }
  | { readonly kind: 'link'; readonly url: URL };

/**
 * A scheme and `://`: of two letters at least, so that a Windows path (`C://x`, `C:\x`) stays a
 * path, refused as absolute by the path rules.
 */
const addressPattern = /^([A-Za-z][A-Za-z0-9+.-]+):\/\//;

export function classifyEvidenceCell(
  cell: string,
  sources: EvidenceSources,
  where?: string,
): EvidenceTarget | EvidenceFailure {
  const scheme = addressPattern.exec(cell)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    const parsed = parseEvidenceCell(cell, where);
    if (!parsed.ok) return parsed;
    return sources.folder === undefined
      ? { kind: 'file', segments: parsed.segments }
      : { kind: 'object', bucket: sources.folder.bucket, key: sources.folder.prefix + parsed.segments.join('/') };
  }
  if (scheme === 's3') return objectOf(cell, sources);
  if (scheme === 'https') return linkOf(cell, sources);
  return notAllowed(
    cell,
    "an s3:// object or an https:// link the mapping's evidence_sources allows, or a path",
    `a ${scheme}:// address: nothing was fetched`,
  );
}

function objectOf(cell: string, sources: EvidenceSources): EvidenceTarget | EvidenceFailure {
  const found = /^s3:\/\/([^/]+)\/(.+)$/i.exec(cell);
  const bucket = found?.[1] ?? '';
  const key = found?.[2] ?? '';
  const listed = [...(sources.folder === undefined ? [] : [sources.folder]), ...sources.buckets];
  const expected = `a bucket and prefix the mapping's evidence_sources.buckets lists (${
    listed.length === 0 ? 'it lists none' : listed.map(formatPlace).join(', ')
  })`;
  // A `.` or `..` segment could be resolved by a store or a proxy on the way: never under a prefix for sure.
  if (found === null || key.split('/').some((segment) => segment === '.' || segment === '..' || segment === ''))
    return notAllowed(
      cell,
      expected,
      'an address that is not s3://bucket/key with plain key segments: nothing was read',
    );
  if (!allowsObject(sources, bucket, key)) {
    const bucketListed = listed.some((place) => place.bucket === bucket);
    return notAllowed(
      cell,
      expected,
      `s3://${bucket}/…${bucketListed ? ' outside the prefixes listed for it' : ''}: nothing was read`,
    );
  }
  return { kind: 'object', bucket, key };
}

function linkOf(cell: string, sources: EvidenceSources): EvidenceTarget | EvidenceFailure {
  let url: URL;
  try {
    url = new URL(cell);
  } catch {
    return notAllowed(cell, 'an https:// link', 'one that does not parse: nothing was fetched');
  }
  if (url.username !== '' || url.password !== '')
    return notAllowed(cell, 'a link without credentials in it', 'one with them: nothing was fetched');
  const host = url.port === '' ? url.hostname : `${url.hostname}:${url.port}`;
  if (!sources.hosts.has(host))
    return notAllowed(
      cell,
      sources.hosts.size === 0
        ? "a host the mapping's evidence_sources.hosts lists (it lists none)"
        : `a host the mapping's evidence_sources.hosts lists (${[...sources.hosts].join(', ')})`,
      `${host}: nothing was fetched`,
    );
  return { kind: 'link', url };
}
