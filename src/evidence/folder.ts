import { resolve } from 'node:path';
import { isObjectAddress } from '../storage/object-address.js';
import { checkEvidence, type EvidenceCheckResult } from './check-evidence.js';
import { realEvidenceDirOnce } from './resolve-path.js';
import { describeEvidenceDir, type EvidenceDirSetBy } from './errors.js';
import { checkEvidenceCell, type RemoteEvidence } from './remote/index.js';

/**
 * Where a job's evidence is looked for, and whether `--evidence-dir` chose it (messages name
 * both): what the import checks its claims' files against and the review its rows' files.
 */
export interface EvidenceFolder {
  /** A folder, or an s3:// bucket and key prefix (`remote.sources.folder`). */
  evidenceDir: string;
  evidenceDirSetBy?: EvidenceDirSetBy | undefined;
  /** Objects and links, as the mapping's evidence_sources allow them; without it, every cell is a path. */
  remote?: RemoteEvidence | undefined;
}

/**
 * One evidence cell checked wherever it points: a path in the folder, a key under an s3://
 * evidence prefix, an object or a link the mapping's evidence_sources allow. The import checks
 * each claim's files with it, the review each row's. A folder with no remote checker reads every
 * cell as a path; an s3:// folder without one is refused, never read as a folder of this machine.
 */
export async function checkInFolder(folder: EvidenceFolder, cell: string): Promise<EvidenceCheckResult> {
  const { evidenceDir, evidenceDirSetBy, remote } = folder;
  // The folder's real path is looked up once for the folder, not for each of its files.
  const realDirOf = async (dir: string) => realEvidenceDirOnce(folder, dir);
  if (remote === undefined) {
    if (isObjectAddress(evidenceDir))
      throw new TypeError(`evidence ${evidenceDir}: expected the import's remote checker for a prefix, got none`);
    return checkEvidence(evidenceDir, cell, evidenceDirSetBy, realDirOf);
  }
  const shown = remote.sources.folder === undefined ? resolve(evidenceDir) : evidenceDir;
  return checkEvidenceCell(
    cell,
    { evidenceDir, evidenceDirSetBy, where: describeEvidenceDir(shown, evidenceDirSetBy), realDirOf },
    remote,
  );
}
