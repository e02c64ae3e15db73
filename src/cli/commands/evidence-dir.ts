import { dirname, resolve } from 'node:path';
import type { EvidenceDirSetBy } from '../../evidence/index.js';
import { parseEvidencePrefix } from '../../evidence/remote/index.js';
import { isObjectAddress, objectFolder, parseObjectAddress } from '../../storage/object-address.js';
import { requireDirectory } from './required-paths.js';

/**
 * `--evidence-dir`, or by default the export's folder (an s3:// export's prefix): a folder is made
 * absolute and must exist; an s3:// prefix is checked as text here (exit 2) and against the store
 * when the plan asks it for the credentials.
 */
export async function evidenceDirOf(
  flag: string | undefined,
  input: string,
): Promise<{ evidenceDir: string; evidenceDirSetBy: EvidenceDirSetBy }> {
  const evidenceDirSetBy = flag === undefined ? 'default' : 'flag';
  const given = flag ?? (isObjectAddress(input) ? objectFolder(parseObjectAddress(input, 'input')) : dirname(input));
  if (isObjectAddress(given)) {
    parseEvidencePrefix(given);
    return { evidenceDir: given, evidenceDirSetBy };
  }
  const evidenceDir = resolve(given);
  await requireDirectory(evidenceDir);
  return { evidenceDir, evidenceDirSetBy };
}
