import type { Claim } from '../api/schemas/claim.js';
import type { ClaimPlan } from './withdrawals.js';
import type { WithdrawTarget } from '../job-files/withdraw/target.js';

/**
 * What a withdraw run is about to do, before anything is sent: the dry run's list, and what a
 * person confirms for a live key. Counted by what happens to each case.
 */
export interface WithdrawPreview {
  service: string;
  claims: number;
  /** `withdraw → lost`, `withdraw → closed`, `delete`, `already closed`, `not found`, `not ours`, `refused`. */
  counts: Record<string, number>;
  /** A few claims that will be written to, with what happens to their cases. */
  sample: { claimId: string; claimKey: string; what: string }[];
}

const sampleSize = 5;

export function previewOf(
  entries: readonly { target: WithdrawTarget; plan: ClaimPlan; found?: Claim | undefined }[],
  service: string,
): WithdrawPreview {
  const counts: Record<string, number> = {};
  const sample: WithdrawPreview['sample'] = [];
  const count = (what: string) => {
    counts[what] = (counts[what] ?? 0) + 1;
  };
  for (const { target, plan } of entries) {
    for (const line of plan.final)
      count(line.errorCode === 'not_ours' ? 'not ours' : line.outcome.replaceAll('_', ' '));
    const whats: string[] = [];
    for (const request of plan.requests) {
      for (const line of request.lines) {
        const what = request.action === 'delete_case' ? 'delete' : `withdraw → ${line.statusAfter}`;
        count(what);
        whats.push(
          `${line.caseId} ${line.statusBefore} → ${request.action === 'delete_case' ? 'deleted' : line.statusAfter}`,
        );
      }
    }
    if (whats.length > 0 && sample.length < sampleSize)
      sample.push({
        claimId: plan.requests[0]?.lines[0]?.claimId ?? target.claimId,
        claimKey: target.claimKey,
        what: whats.join(', '),
      });
  }
  return { service, claims: entries.length, counts, sample };
}

/** The preview for a person: the service, the counts, the sample. */
export function formatPreview(preview: WithdrawPreview): string {
  const lines = [`withdraw at ${preview.service}: ${preview.claims} claims`];
  for (const [what, count] of Object.entries(preview.counts).sort((left, right) => right[1] - left[1]))
    lines.push(`  ${what.padEnd(20)} ${count}`);
  if (preview.sample.length > 0) {
    lines.push('for example:');
    for (const item of preview.sample)
      lines.push(`  ${item.claimId}${item.claimKey === '' ? '' : ` (${item.claimKey})`}: ${item.what}`);
  }
  return `${lines.join('\n')}\n`;
}
