import { filingErrors } from '../../filing-rules/filing-errors.js';
import { newClaimCase, type NewClaimShared } from '../../filing-rules/new-claim-case.js';
import type { RowProblem, RowRecord } from '../journal/journal.js';
import type { ClaimBody } from './body.js';
import type { CheckedFile } from './evidence.js';
import { filingErrorsProblem } from './filing-problem.js';

/**
 * What a dry run predicts of a claim's filing (docs/import.md, "A dry run"): each case of the body
 * the real run would send, as new_claim makes it, through the filing rules the sandbox applies, at
 * `nowMs`. Per row idx, the problem that would stop its case, in the words its `not_filed` line
 * would carry; a row absent would file.
 *
 * The real run's documentation is one file id per distinct file and category (uploads.ts keys them
 * so); here each is named by its content's hash and its category, the category coming from the
 * mapping's evidence entry that named the file. File ids the mapping itself gives
 * (`issuer_evidence.documentation`) are files uploaded elsewhere, whose category only the service
 * knows: a claim naming any is not judged on its documentation, rather than be called short of a
 * receipt it may hold.
 */
export function predictFiling(
  body: ClaimBody,
  rows: readonly RowRecord[],
  filesByRow: ReadonlyMap<number, readonly CheckedFile[]>,
  nowMs: number,
): Map<number, RowProblem> {
  const categoryById = new Map<string, string>();
  for (const row of rows)
    for (const file of filesByRow.get(row.idx) ?? [])
      categoryById.set(`${file.sha256} ${file.category}`, file.category);
  const shared = body as NewClaimShared;
  const evidence = (shared.issuer_evidence ?? {}) as { documentation?: unknown };
  // As buildClaimBody: the uploaded files, when there are any, are the claim's documentation.
  const documentation = categoryById.size > 0 ? [...categoryById.keys()] : evidence.documentation;
  const unknownFiles =
    Array.isArray(documentation) && documentation.some((fileId) => !categoryById.has(String(fileId)));
  const claimShared = { ...shared, issuer_evidence: { ...evidence, documentation } };
  const problems = new Map<number, RowProblem>();
  body.cases.forEach((item, position) => {
    const row = rows[position];
    if (row === undefined) return;
    const errors = filingErrors(newClaimCase(claimShared, item), (fileId) => categoryById.get(fileId), nowMs);
    const judged = unknownFiles ? errors.filter((error) => error.code !== 'documentation_missing') : errors;
    const problem = filingErrorsProblem(judged);
    if (problem !== undefined) problems.set(row.idx, problem);
  });
  return problems;
}
