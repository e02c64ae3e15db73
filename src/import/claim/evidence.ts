import type { ClaimsClient } from '../../api/client/index.js';
import type { UploadCategory } from '../../api/schemas/resources.js';
import { evidenceFileName } from '../../evidence/remote/index.js';
import { checkInFolder, type EvidenceFolder } from '../../evidence/folder.js';
import type { Journal, RowProblem, RowRecord } from '../journal/journal.js';

export type { EvidenceFolder } from '../../evidence/folder.js';

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
      const checked = await checkInFolder(folder, ref.path);
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
