import type { Claim } from '../../api/schemas/claim.js';
import { isRefusal } from '../../api/client/settle.js';
import { checkClaimEvidence, type CheckedFile, type EvidenceFolder } from './evidence.js';
import type { ClaimWork } from './claim-work.js';
import type { RowProblem, RowRecord } from '../journal/journal.js';

/** What the fed-back rows of a claim the service holds add to its documentation. */
export interface NewEvidence {
  /** File ids the claim's cases lack, in the rows' order; each uploaded once per content. */
  newFileIds: string[];
  /** The documentation every case of the claim then holds: what it had, then the new files. */
  documentation: string[];
  /** Per row: the evidence columns that named a new file, as the mapping names them (`evidence.receipt_file`). */
  fieldsByRow: Map<number, string[]>;
  /** Per row: every file id it names now, for its results line. */
  fileIdsByRow: Map<number, string[]>;
  /** Rows whose file is unusable (missing, outside the folder, too large) or was refused by the service. */
  problems: Map<number, RowProblem & { outcome: 'invalid' | 'rejected' }>;
}

/**
 * The files the rows name, against the files the claim's cases have. The service keeps no content
 * hash of a file, so a file counts as attached when this job uploaded its content (sha256 and
 * category) under an id the claim holds, or when a fed-back row names as many files as its
 * results line reported ids and the claim holds them all (the row's files as they were). Anything
 * else is uploaded (once per content for the job) and becomes new documentation; in a dry run it
 * is only named, by its content's hash.
 */
export async function newEvidence(
  found: Claim,
  rows: readonly RowRecord[],
  work: Pick<ClaimWork, 'journal' | 'mode' | 'plan'>,
): Promise<NewEvidence> {
  const held = heldDocumentation(found);
  const heldSet = new Set(held);
  const result: NewEvidence = {
    newFileIds: [],
    documentation: held,
    fieldsByRow: new Map(),
    fileIdsByRow: new Map(),
    problems: new Map(),
  };
  const named = rows.filter((row) => row.evidence_json !== null && row.evidence_json !== '[]');
  if (named.length === 0) return result;
  const checked = await checkClaimEvidence(named, work.plan.evidence);
  const filesByRow = checked.ok
    ? checked.filesByRow
    : await checkedRows(named, work.plan.evidence, checked.problems, result);
  const added = new Set<string>();
  for (const [idx, files] of filesByRow) {
    const row = named.find((candidate) => candidate.idx === idx);
    const reported = (row?.file_ids ?? '').split(';').filter((id) => id !== '');
    if (files.length > 0 && files.length === reported.length && reported.every((id) => heldSet.has(id))) {
      // The row's files as its results line reported them: known by content from now on.
      files.forEach((file, position) => {
        work.journal.recordUpload(file.sha256, file.category, reported[position] ?? '');
      });
      result.fileIdsByRow.set(idx, reported);
      continue;
    }
    const ids: string[] = [];
    for (const file of files) {
      let id: string;
      try {
        // A dry run names a file it would upload by its content, as a dry run's bodies do.
        id =
          work.mode.kind === 'send'
            ? await work.mode.uploads.fileIdFor(file)
            : (work.journal.uploadedFileId(file.sha256, file.category) ?? `sha256_${file.sha256.slice(0, 32)}`);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        result.problems.set(idx, {
          outcome: 'rejected',
          code: error.errors[0]?.code || error.code,
          message: error.errors[0]?.message || error.serviceMessage,
          field: `evidence.${file.column}`,
          httpStatus: error.status,
        });
        break;
      }
      ids.push(id);
      if (!heldSet.has(id)) {
        if (!added.has(id)) result.newFileIds.push(id);
        added.add(id);
        result.fieldsByRow.set(idx, [...(result.fieldsByRow.get(idx) ?? []), `evidence.${file.column}`]);
      }
    }
    if (!result.problems.has(idx)) result.fileIdsByRow.set(idx, ids);
  }
  result.documentation = [...held, ...result.newFileIds];
  return result;
}

/** The files of the rows whose evidence checks out; the others' problems recorded as invalid. */
async function checkedRows(
  rows: readonly RowRecord[],
  folder: EvidenceFolder,
  problems: ReadonlyMap<number, RowProblem>,
  result: NewEvidence,
): Promise<Map<number, CheckedFile[]>> {
  for (const [idx, problem] of problems) result.problems.set(idx, { ...problem, outcome: 'invalid' });
  const usable = rows.filter((row) => !problems.has(row.idx));
  const checked = await checkClaimEvidence(usable, folder);
  return checked.ok ? checked.filesByRow : new Map();
}

/** Every file id the claim's cases hold, each once, in the cases' order (one documentation for the claim). */
function heldDocumentation(found: Claim): string[] {
  const ids = (found.cases ?? []).flatMap((item) => item.issuer_evidence?.documentation ?? []);
  return [...new Set(ids)];
}
