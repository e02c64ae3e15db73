import { clientOf, type ServiceTarget } from '../api/service-target.js';
import type { Mapping } from '../mapping/schema.js';
import { senderNotices } from '../progress/service-notices.js';
import { openPayloads } from './payloads-file.js';
import { EvidenceUploads } from './claim/evidence.js';
import type { Journal } from './journal/journal.js';
import { processClaims, type ProcessSummary } from './process-claims.js';
import { outcomes } from '../job-files/import/columns.js';
import type { ImportOptions } from './options.js';

/** SQLite's default, and the sending phase's: a checkpoint after about 40 MB of WAL instead of 4 MB. */
const defaultCheckpointPages = 1000;
const sendingCheckpointPages = 10_000;

export async function sendClaims(
  journal: Journal,
  options: ImportOptions & { fileMode: Mapping['file_mode'] },
  resuming: boolean,
): Promise<ProcessSummary> {
  // Before any client: a payloads path refused (a link planted there) stops the run before anything is sent.
  const payloads = await openPayloads(options.payloadsFile, resuming);
  const connect = (service: ServiceTarget) => clientOf(service, options);
  const client = options.service === undefined || options.dryRun ? undefined : connect(options.service);
  // A dry run given a service reads from it, to compare a feed-back with what it holds.
  const reader = options.service !== undefined && options.dryRun ? connect(options.service) : undefined;
  const total = journal.pendingCount();
  let done = 0;
  const { progress } = options;
  progress?.begin({ label: options.dryRun ? 'checking' : 'sending', unit: 'claims', total });
  // Counted for the terminal only: two reads of the journal per claim.
  const counting = progress?.enabled === true;
  if (counting) {
    const final = journal.finalOutcomeCounts();
    for (const outcome of outcomes) progress.count(outcome, final.get(outcome) ?? 0);
  }
  // Fewer checkpoints while sending: each claim commits a few pages about once, so SQLite's default
  // (1000 pages) checkpointed every ~150 claims, and each checkpoint syncs the file on the event
  // loop, holding every answer in flight (strace of the sending phase's journal writes, 6,400
  // claims on this machine: 88 syncs in 414 ms, 13 in 161 ms). Restored below, as staging does.
  journal.database.pragma(`wal_autocheckpoint = ${sendingCheckpointPages}`);
  try {
    const processed = await processClaims({
      journal,
      client,
      reader,
      uploads: client === undefined ? undefined : new EvidenceUploads(journal, client),
      evidenceDir: options.evidenceDir,
      evidenceDirSetBy: options.evidenceDirSetBy,
      fileMode: options.fileMode,
      filingClock: options.filingClock,
      // Staged by this process, not an earlier run: bodies are spliced from the rows' JSON (claim/wire-body.ts).
      stagedHere: !resuming,
      concurrency: options.concurrency,
      breakerThreshold: options.breakerThreshold ?? 5,
      logger: options.logger,
      stopRequested: options.stopRequested,
      onClaimDone: (claimKey) => {
        if (counting) for (const outcome of journal.outcomesOf(claimKey)) progress.count(outcome);
        progress?.update(++done);
      },
      notices: senderNotices(progress),
      onPayload: payloads?.write,
    });
    if (processed.abortedBecause !== undefined)
      options.logger.error(
        { reason: processed.abortedBecause },
        'run stopped early; run the same command again to continue',
      );
    return processed;
  } finally {
    journal.database.pragma(`wal_autocheckpoint = ${defaultCheckpointPages}`);
    await client?.close();
    await reader?.close();
    await payloads?.close();
  }
}
