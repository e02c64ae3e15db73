import { resolve } from 'node:path';
import { checkEvidence, describeEvidenceDir } from '../evidence/index.js';
import { checkEvidenceCell } from '../evidence/remote/index.js';
import { CodedError } from '../errors/coded-error.js';
import type { EvidenceFolder } from '../import/claim/evidence.js';
import { isObjectAddress } from '../storage/object-address.js';

/** A cell's evidence as the review shows it: passes, or the code and message the import would give. */
export type ReviewEvidenceCheck = { readonly ok: true } | { readonly ok: false; code: string; message: string };

/**
 * One evidence cell checked as the import checks it, wherever it points: a path in the folder, a
 * key under an s3:// evidence prefix, an object or a link the mapping's evidence_sources allows
 * (docs/review.md). What stops an import (a store or a document server that does not answer, the
 * credentials refused) is the row's problem here, in the import's words: the page stays up and
 * the check runs again on the next edit.
 */
export async function checkReviewEvidence(folder: EvidenceFolder, cell: string): Promise<ReviewEvidenceCheck> {
  const { evidenceDir, evidenceDirSetBy, remote } = folder;
  if (remote === undefined) {
    // Without the import's remote checker a prefix would be read as a folder of this machine.
    if (isObjectAddress(evidenceDir))
      throw new TypeError(`review evidence ${evidenceDir}: expected the import's remote checker, got none`);
    return checkEvidence(evidenceDir, cell, evidenceDirSetBy);
  }
  const shown = remote.sources.folder === undefined ? resolve(evidenceDir) : evidenceDir;
  try {
    return await checkEvidenceCell(
      cell,
      { evidenceDir, evidenceDirSetBy, where: describeEvidenceDir(shown, evidenceDirSetBy) },
      remote,
    );
  } catch (error) {
    if (!(error instanceof CodedError)) throw error;
    return { ok: false, code: error.code, message: `evidence ${cell}: ${error.message}` };
  }
}
