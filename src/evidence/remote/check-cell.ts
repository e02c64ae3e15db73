import type { LimitFunction } from 'p-limit';
import type { ObjectStore } from '../../storage/object-store.js';
import { checkEvidence, type EvidenceCheckResult } from '../check-evidence.js';
import type { EvidenceFailure } from '../errors.js';
import { classifyEvidenceCell } from './classify-cell.js';
import { fetchEvidenceLink, type LinkSettings } from './fetch-link.js';
import { readEvidenceObject } from './read-object.js';
import type { EvidenceSources } from './sources.js';

/** What a job reads remote evidence with: the allowed sources, the store, the way to links, and its own limit. */
export interface RemoteEvidence {
  readonly sources: EvidenceSources;
  /** The job's store, made the first time an object is read. */
  readonly objects: () => ObjectStore;
  readonly links: LinkSettings;
  /** Remote reads at once, across every claim in flight: a bound of their own, apart from the service's. */
  readonly limit: LimitFunction;
}

/**
 * One evidence cell, wherever it points, from its text to bytes ready to upload: a path in the
 * evidence folder (checkEvidence, as always), a key under an s3:// evidence folder, an object in
 * a listed bucket, a document on a listed host. Failures are values, as checkEvidence's are;
 * what stops the run (credentials refused, a store or document server not answering) is thrown.
 * `where` names the evidence folder in messages (describeEvidenceDir).
 */
export async function checkEvidenceCell(
  cell: string,
  folder: {
    evidenceDir: string;
    evidenceDirSetBy?: 'flag' | 'default' | undefined;
    where: string;
    /** The folder's real path, looked up once (resolve-path.ts, realEvidenceDirOnce). */
    realDirOf?: (evidenceDir: string) => Promise<string>;
  },
  remote: RemoteEvidence,
): Promise<EvidenceCheckResult> {
  const target = classifyEvidenceCell(cell, remote.sources, folder.where);
  if ('ok' in target) return target satisfies EvidenceFailure;
  if (target.kind === 'file') return checkEvidence(folder.evidenceDir, cell, folder.evidenceDirSetBy, folder.realDirOf);
  const read =
    target.kind === 'object'
      ? await remote.limit(async () => readEvidenceObject(remote.objects(), target, cell))
      : await remote.limit(async () => fetchEvidenceLink(cell, remote.sources.hosts, remote.links));
  return read.ok ? { ...read, path: cell } : read;
}

/**
 * The name an upload carries: a path's or a key's last segment, a link's path's last segment
 * without its query; `evidence` when there is none.
 */
export function evidenceFileName(cell: string): string {
  if (/^https:\/\//i.test(cell)) {
    try {
      const last = new URL(cell).pathname.split('/').at(-1) ?? '';
      return last === '' ? 'evidence' : decodeURIComponent(last);
    } catch {
      return 'evidence';
    }
  }
  const last = cell.split(/[\\/]/).at(-1) ?? '';
  return last === '' ? 'evidence' : last;
}
