import type { Journal, RowProblem, RowRecord } from '../journal/journal.js';
import type { CheckedFile, EvidenceUploads } from './evidence.js';
import { isRefusal } from '../../api/client/settle.js';

/**
 * A new claim's files uploaded (once per content) and each row's file ids recorded, before the
 * create that names them. Undefined when the service refused a file: the row and the claim say
 * so, and the claim is not sent.
 */
export async function uploadEvidence(
  journal: Journal,
  key: string,
  rows: readonly RowRecord[],
  filesByRow: Map<number, CheckedFile[]>,
  uploads: EvidenceUploads,
): Promise<Map<number, string[]> | undefined> {
  const fileIds = await uploadAll(filesByRow, uploads);
  if (!(fileIds instanceof Map)) {
    refuseForFile(journal, key, rows, fileIds);
    return undefined;
  }
  recordFileIds(journal, rows, fileIds);
  return fileIds;
}

/** Each row's file ids, or the row whose file the service refused and why. */
async function uploadAll(
  filesByRow: Map<number, CheckedFile[]>,
  uploads: EvidenceUploads,
): Promise<Map<number, string[]> | { idx: number; problem: RowProblem }> {
  const fileIds = new Map<number, string[]>();
  for (const [idx, files] of filesByRow) {
    const ids: string[] = [];
    for (const file of files) {
      try {
        ids.push(await uploads.fileIdFor(file));
      } catch (error) {
        if (!isRefusal(error)) throw error;
        return {
          idx,
          problem: {
            code: error.errors[0]?.code || error.code,
            message: error.errors[0]?.message || error.serviceMessage,
            field: `evidence.${file.column}`,
            httpStatus: error.status,
          },
        };
      }
    }
    fileIds.set(idx, ids);
  }
  return fileIds;
}

/** The service refused a file (4xx): the row names it; the claim is not sent without it. */
function refuseForFile(
  journal: Journal,
  key: string,
  rows: readonly RowRecord[],
  refused: { idx: number; problem: RowProblem },
): void {
  journal.transaction(() => {
    journal.setRowOutcome(refused.idx, 'rejected', refused.problem);
    journal.setClaimProblem(
      key,
      {
        ...refused.problem,
        message: `claim not sent: line ${rows.find((row) => row.idx === refused.idx)?.line ?? '?'} has a file the service refused`,
      },
      'rejected',
    );
  });
}

/** Each row's uploaded file ids, recorded before the create that names them. */
function recordFileIds(journal: Journal, rows: readonly RowRecord[], fileIds: Map<number, string[]>): void {
  // A fed-back row's reported ids (a claim the service turned out not to hold) give way to this run's.
  const reported = new Set(rows.filter((row) => row.file_ids !== null).map((row) => row.idx));
  if ([...fileIds.values()].some((ids) => ids.length > 0) || reported.size > 0) {
    journal.transaction(() => {
      for (const [idx, ids] of fileIds)
        if (ids.length > 0 || reported.has(idx)) journal.setRowFileIds(idx, ids.join(';'));
    });
  }
}
