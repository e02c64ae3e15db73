/**
 * The import's client-side evidence checks: a CSV cell becomes a real file inside `--evidence-dir`,
 * read within the size limit and checked as the service would, or a failure with a stable code for
 * the results CSV.
 */
export { checkEvidence, type EvidenceCheckResult } from './check-evidence.js';
export { checkEvidenceContent, type EvidenceFile, type EvidenceFileResult } from './check-content.js';
export { readEvidenceFile } from './check-file.js';
export {
  describeEvidenceDir,
  evidenceErrorCodes,
  type EvidenceDirSetBy,
  type EvidenceErrorCode,
  type EvidenceFailure,
} from './errors.js';
export {
  EvidenceDirectoryError,
  parseEvidenceCell,
  resolveEvidencePath,
  type EvidencePathResult,
} from './resolve-path.js';
export type { EvidenceFolder } from './folder.js';
