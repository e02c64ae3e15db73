import {
  flagDifference,
  madeWithMismatch,
  shortHash,
  shownValue,
  type MadeWithDifference,
} from '../journal/made-with.js';
import type { JournalMismatchError } from '../journal/open.js';
import type { RecordedWithdrawFingerprint, WithdrawFingerprint } from '../job-files/withdraw/meta.js';

/**
 * What ties a withdraw journal to its job (its sources' sha256 and the flags that choose what is
 * taken back), and the refusal that names what differs and what to change (docs/withdraw.md).
 */

/** Repeatable flags: `--outcome a --outcome b` as one value, `a, b`. */
const listed = (values: readonly string[] | null | undefined) =>
  values === null || values === undefined || values.length === 0 ? undefined : values.join(', ');

function sourcesDifference(then: readonly string[], now: readonly string[]): MadeWithDifference {
  const resume = 'the same source files, in the same order';
  if (then.length !== now.length)
    return {
      said: `${String(now.length)} source files where the journal was made with ${String(then.length)}`,
      resume,
    };
  const changed = now.flatMap((hash, index) =>
    hash === then[index]
      ? []
      : [`source ${String(index + 1)} (sha256 ${shortHash(then[index] ?? '')} vs ${shortHash(hash)})`],
  );
  return { said: `source files that differ from those the journal was made with: ${changed.join(', ')}`, resume };
}

/** Every part of this run that differs from the journal's. */
export function withdrawDifferences(then: RecordedWithdrawFingerprint, now: WithdrawFingerprint): MadeWithDifference[] {
  const differences: MadeWithDifference[] = [];
  if (then.format !== now.format)
    differences.push({
      said: `a journal of format ${shownValue(then.format)}, written by another version of bulk-disputes`,
      resume: 'the version that made it',
    });
  if (JSON.stringify(then.sources) !== JSON.stringify(now.sources))
    differences.push(sourcesDifference(then.sources ?? [], now.sources));
  if (then.scope !== now.scope) differences.push(flagDifference('--scope', then.scope, now.scope));
  if (then.deleteUnfiled !== now.deleteUnfiled)
    differences.push(flagDifference('--delete-unfiled', then.deleteUnfiled, now.deleteUnfiled));
  if (listed(then.outcomes) !== listed(now.outcomes))
    differences.push(flagDifference('--outcome', listed(then.outcomes), listed(now.outcomes)));
  if (listed(then.claimKeys) !== listed(now.claimKeys))
    differences.push(flagDifference('--claim-key', listed(then.claimKeys), listed(now.claimKeys)));
  if ((then.column ?? null) !== now.column)
    differences.push(flagDifference('--column', then.column ?? undefined, now.column ?? undefined));
  if (then.dryRun !== now.dryRun) differences.push(flagDifference('--dry-run', then.dryRun, now.dryRun));
  return differences;
}

/** The refusal of a run whose sources or flags differ from the journal's. */
export function withdrawMismatch(
  journalFile: string,
  then: RecordedWithdrawFingerprint,
  now: WithdrawFingerprint,
): JournalMismatchError {
  return madeWithMismatch(
    journalFile,
    'sources and flags',
    withdrawDifferences(then, now),
    'what it sent is settled, never sent twice',
  );
}
