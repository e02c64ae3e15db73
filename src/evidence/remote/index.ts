/**
 * Evidence beyond the evidence folder (docs/mappings.md, "Evidence from object storage and
 * links"): s3:// objects and https:// documents the mapping's evidence_sources allows, and keys
 * under an s3:// evidence folder, read within the same limits and checks as files.
 */
export { checkEvidenceCell, evidenceFileName, type RemoteEvidence } from './check-cell.js';
export { classifyEvidenceCell, type EvidenceTarget } from './classify-cell.js';
export { DocumentServerUnavailableError } from './errors.js';
export { defaultLinkSettings, fetchEvidenceLink, type LinkSettings } from './fetch-link.js';
export { readEvidenceObject } from './read-object.js';
export {
  EvidencePrefixError,
  evidenceSourcesOf,
  formatPlace,
  objectPlaces,
  parseEvidencePrefix,
  type BucketPrefix,
  type EvidenceSources,
} from './sources.js';
