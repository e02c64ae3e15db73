import {
  flagDifferences,
  formatDifference,
  madeWithRefusal,
  shortHash,
  type MadeWithDifference,
} from '../journal/made-with.js';
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

/** The refusal of a run whose sources or flags differ from the journal's. */
export const withdrawMismatch = madeWithRefusal(
  'sources and flags',
  'what it sent is settled, never sent twice',
  withdrawDifferences,
);

/** Every part of this run that differs from the journal's. */
export function withdrawDifferences(then: RecordedWithdrawFingerprint, now: WithdrawFingerprint): MadeWithDifference[] {
  const differences: MadeWithDifference[] = [];
  if (then.format !== now.format) differences.push(formatDifference(then.format));
  if (JSON.stringify(then.sources) !== JSON.stringify(now.sources))
    differences.push(sourcesDifference(then.sources ?? [], now.sources));
  return [
    ...differences,
    ...flagDifferences([
      ['--scope', then.scope, now.scope],
      ['--delete-unfiled', then.deleteUnfiled, now.deleteUnfiled],
      ['--outcome', listed(then.outcomes), listed(now.outcomes)],
      ['--claim-key', listed(then.claimKeys), listed(now.claimKeys)],
      ['--column', then.column ?? undefined, now.column ?? undefined],
      ['--dry-run', then.dryRun, now.dryRun],
    ]),
  ];
}
