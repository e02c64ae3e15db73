import { CodedError } from '../errors/coded-error.js';
import { checkInFolder, type EvidenceFolder } from '../evidence/folder.js';

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
  try {
    return await checkInFolder(folder, cell);
  } catch (error) {
    if (!(error instanceof CodedError)) throw error;
    return { ok: false, code: error.code, message: `evidence ${cell}: ${error.message}` };
  }
}
