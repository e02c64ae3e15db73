import { readEvidenceFile } from './check-file.js';
import type { EvidenceFile } from './check-content.js';
import { describeEvidenceDir, type EvidenceDirSetBy, type EvidenceFailure } from './errors.js';
import { resolve } from 'node:path';
import { confineEvidencePath } from './resolve-path.js';

export type EvidenceCheckResult = ({ ok: true; path: string } & EvidenceFile) | EvidenceFailure;

/**
 * One evidence cell, from its text to bytes ready to upload: confined to the evidence
 * directory, then read and checked. Throws only when the evidence directory itself is unusable
 * (EvidenceDirectoryError) or the machine fails; every problem with the cell is a value.
 * `setBy` says how the directory was chosen, for the messages that name it.
 */
export async function checkEvidence(
  evidenceDir: string,
  cell: string,
  setBy?: EvidenceDirSetBy,
  /** The directory's real path when known (resolve-path.ts, realEvidenceDirOnce). */
  realDirOf?: (evidenceDir: string) => Promise<string>,
): Promise<EvidenceCheckResult> {
  const resolved = await confineEvidencePath(evidenceDir, cell, setBy, realDirOf);
  if (!resolved.ok) return resolved;
  const file = await readEvidenceFile(resolved.path, cell, describeEvidenceDir(resolve(evidenceDir), setBy));
  return file.ok ? { ...file, path: resolved.path } : file;
}
