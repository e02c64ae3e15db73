import type { ClaimsClient } from '../../api/client/index.js';
import type { UploadCategory } from '../../api/schemas/resources.js';
import { resolve } from 'node:path';
import { checkEvidence, describeEvidenceDir, type EvidenceDirSetBy } from '../../evidence/index.js';
import { checkEvidenceCell, evidenceFileName, type RemoteEvidence } from '../../evidence/remote/index.js';
import type { Journal, RowProblem, RowRecord } from '../journal/journal.js';

interface EvidenceRef {
  path: string;
  category: string;
  column: string;
}

export interface CheckedFile {
  sha256: string;
  bytes: Buffer;
  contentType: 'image/jpeg' | 'image/png' | 'application/pdf';
  path: string;
  category: string;
  column: string;
}

/** Where a job's evidence is looked for, and whether `--evidence-dir` chose it (messages name both). */
export interface EvidenceFolder {
  /** A folder, or an s3:// bucket and key prefix (`remote.sources.folder`). */
  evidenceDir: string;
  evidenceDirSetBy?: EvidenceDirSetBy | undefined;
  /** Objects and links, as the mapping's evidence_sources allow them; without it, every cell is a path. */
  remote?: RemoteEvidence | undefined;
}

export type EvidenceCheck =
  { ok: true; filesByRow: Map<number, CheckedFile[]> } | { ok: false; problems: Map<number, RowProblem> };

/**
 * Checks every file a claim's rows name: inside the evidence directory, a real JPEG, PNG or PDF,
 * small enough, few enough pages. A row with a bad file is invalid, naming the column; the file is
 * never uploaded.
 */
export async function checkClaimEvidence(rows: readonly RowRecord[], folder: EvidenceFolder): Promise<EvidenceCheck> {
  const filesByRow = new Map<number, CheckedFile[]>();
  const problems = new Map<number, RowProblem>();
  for (const row of rows) {
    const refs = JSON.parse(row.evidence_json ?? '[]') as EvidenceRef[];
    const files: CheckedFile[] = [];
    for (const ref of refs) {
      const checked = await checkOne(folder, ref.path);
      if (!checked.ok) {
        problems.set(row.idx, { code: checked.code, message: checked.message, field: `evidence.${ref.column}` });
        break;
      }
      files.push({
        sha256: checked.sha256,
        bytes: checked.bytes,
        contentType: checked.contentType,
        path: ref.path,
        category: ref.category,
        column: ref.column,
      });
    }
    filesByRow.set(row.idx, files);
  }
  return problems.size > 0 ? { ok: false, problems } : { ok: true, filesByRow };
}

async function checkOne(folder: EvidenceFolder, cell: string) {
  const { evidenceDir, evidenceDirSetBy, remote } = folder;
  if (remote === undefined) return checkEvidence(evidenceDir, cell, evidenceDirSetBy);
  const shown = remote.sources.folder === undefined ? resolve(evidenceDir) : evidenceDir;
  return checkEvidenceCell(
    cell,
    { evidenceDir, evidenceDirSetBy, where: describeEvidenceDir(shown, evidenceDirSetBy) },
    remote,
  );
}

/**
 * Uploads each distinct file once per job (by sha256 and category), however many rows and claims name it, in
 * this run or an earlier one; concurrent claims naming the same file share one upload.
 */
export class EvidenceUploads {
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(
    private readonly journal: Journal,
    private readonly client: ClaimsClient,
  ) {}

  async fileIdFor(file: CheckedFile): Promise<string> {
    const known = this.journal.uploadedFileId(file.sha256, file.category);
    if (known !== undefined) return known;
    const key = `${file.sha256} ${file.category}`;
    let upload = this.inFlight.get(key);
    if (upload === undefined) {
      upload = this.upload(file).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, upload);
    }
    return upload;
  }

  private async upload(file: CheckedFile): Promise<string> {
    const filename = evidenceFileName(file.path);
    const { data } = await this.client.files.upload({
      category: file.category as UploadCategory,
      filename,
      contentType: file.contentType,
      content: file.bytes,
    });
    this.journal.recordUpload(file.sha256, file.category, data.id);
    return data.id;
  }
}
