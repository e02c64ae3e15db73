import pLimit from 'p-limit';
import type { NetworkOptions } from '../api/client/config.js';
import { resolveTls } from '../api/network/tls-material.js';
import {
  defaultLinkSettings,
  EvidencePrefixError,
  evidenceSourcesOf,
  formatPlace,
  objectPlaces,
  parseEvidencePrefix,
  type BucketPrefix,
  type RemoteEvidence,
} from '../evidence/remote/index.js';
import type { Mapping } from '../mapping/schema.js';
import { isObjectAddress } from '../storage/object-address.js';
import { ObjectNotFoundError } from '../storage/object-store.js';
import type { StoreOnDemand } from '../storage/store-on-demand.js';
import type { EvidenceFolder } from './claim/evidence.js';
import type { EvidenceDirSetBy } from '../evidence/index.js';
import type { Logger } from 'pino';

/**
 * Remote reads at once by default: enough to keep a store's or a document server's latency off
 * the claims' path at the service's usual pace, few enough that a bank's document system is not
 * hit harder than a person browsing it with a few tabs would.
 */
export const defaultEvidenceFetchConcurrency = 16;

/**
 * Where the job's evidence comes from (docs/import.md, "Exports and evidence in object storage or behind
 * links"): the folder or s3:// prefix, what the mapping's evidence_sources allow besides, and how
 * links are reached (the service's CA file and proxy). With any bucket to read, the store is asked
 * once here whether it takes the credentials: a refusal stops the job before a row is staged or
 * sent (exit 5), not row by row.
 */
/** What the import's request says of its evidence (plan.ts's ImportRequest). */
export interface EvidenceRequest {
  readonly evidenceDir: string;
  readonly evidenceDirSetBy?: EvidenceDirSetBy | undefined;
  readonly evidenceFetchConcurrency?: number | undefined;
  readonly evidenceNetwork?: NetworkOptions | undefined;
  readonly service?: { readonly network?: NetworkOptions | undefined } | undefined;
  readonly logger: Logger;
}

export async function resolveEvidence(
  request: EvidenceRequest,
  mapping: Mapping,
  objects: StoreOnDemand,
): Promise<EvidenceFolder> {
  const folder = isObjectAddress(request.evidenceDir) ? parseEvidencePrefix(request.evidenceDir) : undefined;
  const sources = evidenceSourcesOf(mapping.evidence_sources, folder);
  const network: NetworkOptions | undefined = request.evidenceNetwork ?? request.service?.network;
  const remote: RemoteEvidence = {
    sources,
    objects: () => objects.get(),
    links: {
      ...defaultLinkSettings,
      // Added to the system's roots, as for the service (tls-material.ts); no client certificate: that is the service's.
      ca: network?.ca === undefined ? undefined : resolveTls({ ca: network.ca }, network.env).options?.ca,
      proxy: network === undefined ? undefined : { proxy: network.proxy, env: network.env },
    },
    limit: pLimit(request.evidenceFetchConcurrency ?? defaultEvidenceFetchConcurrency),
  };
  for (const place of objectPlaces(sources)) await checkPlace(objects, place, place === folder, request);
  return {
    evidenceDir: folder === undefined ? request.evidenceDir : formatPlace(folder),
    evidenceDirSetBy: request.evidenceDirSetBy,
    remote,
  };
}

/**
 * The credentials, on one bucket and prefix: refused, the job stops (ObjectStoreCredentialsError);
 * a list denied is no refusal (a role may read without listing). No such bucket: the s3:// evidence
 * folder is refused like a missing folder; a bucket the mapping lists is only warned, its cells
 * then each not found.
 */
async function checkPlace(
  objects: StoreOnDemand,
  place: BucketPrefix,
  isFolder: boolean,
  request: EvidenceRequest,
): Promise<void> {
  try {
    const answer = await objects.get().checkCredentials(place);
    if (answer === 'list-denied')
      request.logger.info(
        { place: formatPlace(place) },
        'evidence: the store does not let these credentials list this prefix; its objects are still read one by one',
      );
  } catch (error) {
    if (!(error instanceof ObjectNotFoundError)) throw error;
    if (isFolder)
      throw new EvidencePrefixError(`--evidence-dir ${formatPlace(place)}: expected a bucket, got none there`, {
        cause: error,
      });
    request.logger.warn(
      { place: formatPlace(place) },
      "evidence: the mapping's evidence_sources.buckets lists a bucket the store does not hold; its cells will be not found",
    );
  }
}
