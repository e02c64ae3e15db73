import { clientOf } from '../api/service-target.js';
import { senderNotices } from '../progress/service-notices.js';
import { openPayloads } from './payloads-file.js';
import { EvidenceUploads } from './claim/evidence.js';
import type { Journal } from './journal/journal.js';
import { processClaims, type ProcessSummary } from './process-claims.js';
import { outcomes } from '../job-files/import/columns.js';
import type { ImportPlan } from './plan.js';
import type { ClaimMode } from './claim/claim-work.js';
import type { StagingFrontier } from './stage/frontier.js';
import type { SettledRows } from './settled-rows.js';

/** SQLite's default, and the sending phase's: a checkpoint after about 40 MB of WAL instead of 4 MB. */
const defaultCheckpointPages = 1000;
const sendingCheckpointPages = 10_000;

/** While staging goes on: how far it is (src/import/stage/frontier.ts), and who is told when the first claim goes. */
export interface AlongsideStaging {
  readonly frontier: StagingFrontier;
  readonly onFirstClaim: () => void;
}

/**
 * Every claim still to send, through its steps. `alongside`: staging still goes on, and a claim
 * is taken once its rows are in; the progress line counts claims once every claim is known.
 * `settled` is told which claims are taken and done, for the results written meanwhile.
 */
export async function sendClaims(
  journal: Journal,
  plan: ImportPlan,
  { resuming, alongside, settled }: { resuming: boolean; alongside?: AlongsideStaging; settled?: SettledRows },
): Promise<ProcessSummary> {
  const frontier = alongside?.frontier;
  // Before any client: a payloads path refused (a link planted there) stops the run before anything is sent.
  const payloads = await openPayloads(plan.payloadsFile, resuming);
  const mode = connect(plan, journal);
  const checking = mode.kind === 'check';
  let done = 0;
  const { progress } = plan;
  // Counted for the terminal only: two reads of the journal per claim.
  const counting = progress?.enabled === true;
  let counted = false;
  const beginProgress = () => {
    // The claims done while staging went on are among the final outcomes, and not pending.
    progress?.begin({ label: checking ? 'checking' : 'sending', unit: 'claims', total: journal.pendingCount() + done });
    progress?.update(done);
    if (counting) {
      const final = journal.finalOutcomeCounts();
      for (const outcome of outcomes) progress.count(outcome, final.get(outcome) ?? 0);
    }
    counted = true;
  };
  if (frontier === undefined) beginProgress();
  else
    void frontier.whenStaged.then(() => {
      beginProgress();
    });
  // Fewer checkpoints while sending: each claim commits a few pages about once, so SQLite's default
  // (1000 pages) checkpointed every ~150 claims, and each checkpoint syncs the file on the event
  // loop, holding every answer in flight (strace of the sending phase's journal writes, 6,400
  // claims on this machine: 88 syncs in 414 ms, 13 in 161 ms). Restored below, as staging does.
  journal.database.pragma(`wal_autocheckpoint = ${sendingCheckpointPages}`);
  try {
    const processed = await processClaims({
      work: {
        plan,
        journal,
        mode,
        // Staged by this process, not an earlier run: bodies are spliced from the rows' JSON (claim/wire-body.ts).
        stagedHere: !resuming,
        onPayload: payloads?.write,
        logger: plan.logger,
      },
      onClaimDone: (claimKey) => {
        done++;
        // While staging goes on, the line is staging's.
        if (!counted) return;
        if (counting) for (const outcome of journal.outcomesOf(claimKey)) progress.count(outcome);
        progress?.update(done);
      },
      frontier,
      settled,
      onFirstClaim: alongside?.onFirstClaim,
      notices: senderNotices(progress),
    });
    if (processed.abortedBecause !== undefined)
      plan.logger.error(
        { reason: processed.abortedBecause },
        'run stopped early; run the same command again to continue',
      );
    return processed;
  } finally {
    journal.database.pragma(`wal_autocheckpoint = ${defaultCheckpointPages}`);
    await (mode.kind === 'send' ? mode.client : mode.reader)?.close();
    await payloads?.close();
  }
}

/** The plan's mode with its clients: the service's, to send to; a dry run's reader when a service was named. */
function connect(plan: ImportPlan, journal: Journal): ClaimMode {
  const { mode } = plan;
  if (mode.kind === 'check') {
    const { compareWith } = mode;
    const reader =
      compareWith === undefined ? undefined : clientOf(compareWith, { ...plan.pacing, logger: plan.logger });
    return { kind: 'check', filingClock: mode.filingClock, reader };
  }
  const client = clientOf(mode.service, { ...plan.pacing, logger: plan.logger });
  return { kind: 'send', client, uploads: new EvidenceUploads(journal, client) };
}
