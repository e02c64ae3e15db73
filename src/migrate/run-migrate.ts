import { resolve } from 'node:path';
import type { MigrateSettings } from '../job-files/migrate/meta.js';
import { sameRecord } from '../journal/meta.js';
import { recordWrittenFiles } from '../journal/retention-meta.js';
import { clientOf, identityOf } from '../api/service-target.js';
import type { ClaimsClient } from '../api/client/index.js';
import { bindService } from '../journal/service-binding.js';
import type { Progress } from '../progress/progress.js';
import { PhaseTimer, type PhaseTime } from '../progress/phases.js';
import { senderNotices } from '../progress/service-notices.js';
import { flagDifference, madeWithMismatch, shownValue } from '../journal/made-with.js';
import type { ThrottlingSummary } from '../rate/follow-throttling.js';
import { Sender } from '../rate/sender.js';
import { groupClaimsOf } from './group-claims.js';
import type { GroupClaims } from './claim-run.js';
import { groupKeyOf, migratedClaimId } from '../job-files/migrate/group.js';
import { MigrateJournal, type StagedCase } from '../job-files/migrate/journal.js';
import { writeMigrateResults, type MigrateSummary } from './results.js';
import { migrateOutcomeOf, migrateOutcomes } from '../job-files/migrate/columns.js';
import { namingFile } from '../files/resource-failure.js';
import { resolveMigratePlan, type MigratePlan, type MigrateRequest } from './plan.js';

export type { MigrateRequest } from './plan.js';

export interface MigrateReport {
  summary: MigrateSummary;
  /** The run stopped early (service down, stop requested): resumable. */
  abortedBecause?: string | undefined;
  /** Authentication refused: the caller rethrows it (exit 3). */
  fatal?: unknown;
  claimsCreated: number;
  claimsAdopted: number;
  /** How often the service throttled, and where the claims in flight settled. */
  throttling: ThrottlingSummary;
  /** How long listing the v1 cases, sending and writing the results took. */
  phases: PhaseTime[];
  /** The plan's mode: a dry run's cases count `valid`, not `migrated`. */
  mode: MigratePlan['mode'];
}

/**
 * migrate-v1: stage every v1 case into the journal, grouped into claims; then, per claim,
 * `POST /v2/issuer/claims {case_ids, claim_id}` exactly once (no claim is ever created twice);
 * then the results CSV from the journal. Run again, it continues.
 */
export async function runMigrate(request: MigrateRequest): Promise<MigrateReport> {
  return migrateByPlan(resolveMigratePlan(request));
}

async function migrateByPlan(plan: MigratePlan): Promise<MigrateReport> {
  const { logger, progress } = plan;
  const journal = new MigrateJournal(plan.journalFile);
  try {
    // Before the listing, the first request: a journal of another service is refused.
    const binding = bindService(journal.meta, identityOf(plan.service), {
      file: plan.journalFile,
      restart: plan.restart,
      holdsJob: journal.meta.has('settings'),
      holdsServiceData: journal.meta.get('staged') === true,
      logger,
    });
    if (binding === 'forget') journal.reset();
  } catch (error) {
    journal.close();
    throw error;
  }
  const client = clientOf(plan.service, { ...plan.pacing, logger });
  // The claims in flight follow the service's 503s, and the pace its 429s (docs/rate-limits.md);
  // p-limit applies a new limit to the claims it starts next.
  const sender = new Sender({ client, pacing: plan.pacing, logger, notices: senderNotices(progress) });
  const phases = new PhaseTimer();
  try {
    phases.next('staging');
    await stageAll(journal, client, plan);
    phases.next('sending');
    const claims = groupClaimsOf(plan.mode, { journal, client, sender, logger });
    const queue = journal.pendingGroups();
    const started = await sendGroups(queue, claims, journal, sender, progress);
    progress?.done();
    phases.next('results');
    recordWrittenFiles(journal.meta, [{ path: resolve(plan.resultsFile), role: 'results' }]);
    const throttling = sender.finish();
    logger.info({ throttling }, 'sending paced');
    // A full disk while writing the results names them: the journal holds everything.
    const summary = await writeMigrateResults(journal, plan.resultsFile).catch(
      namingFile(plan.resultsFile, { resumes: true }),
    );
    const stoppedEarly = started < queue.length || sender.breaker.open;
    return {
      summary,
      abortedBecause: stoppedEarly ? (sender.breaker.why ?? 'stop requested') : undefined,
      fatal: sender.fatal,
      claimsCreated: claims.created,
      claimsAdopted: claims.adopted,
      throttling,
      phases: phases.end(),
      mode: plan.mode,
    };
  } finally {
    sender.finish();
    progress?.done();
    journal.close();
    await client.close();
  }
}

/** Each claim of the queue migrated once, as many at once as the sender allows. Returns how many were started. */
async function sendGroups(
  queue: readonly string[],
  claims: GroupClaims,
  journal: MigrateJournal,
  sender: Sender,
  progress: Progress | undefined,
): Promise<number> {
  let started = 0;
  let done = 0;
  progress?.begin({ label: 'sending', unit: 'claims', total: queue.length });
  for (const outcome of migrateOutcomes) progress?.count(outcome, 0);
  await Promise.all(
    queue.map(async (groupKey) =>
      sender.limit(async () => {
        // Queued before a stop: not started, left for the next run.
        if (sender.stopping) return;
        started++;
        await claims.migrate(groupKey);
        // The running counts, per v1 case: read only for a terminal.
        if (progress?.enabled === true)
          for (const row of journal.groupRows(groupKey)) progress.count(migrateOutcomeOf(row).outcome);
        progress?.update(++done);
        sender.showBreaker();
      }),
    ),
  );
  return started;
}

/** Lists the v1 cases into the journal once; a staging cut short starts over (nothing was sent). */
async function stageAll(journal: MigrateJournal, client: ClaimsClient, plan: MigratePlan): Promise<void> {
  const { settings, logger, progress } = plan;
  const recorded = journal.meta.get('settings');
  if (recorded !== undefined && !sameRecord(recorded, settings)) {
    if (!plan.restart) {
      throw migrateMismatch(plan.journalFile, recorded, settings);
    }
    journal.reset();
  } else if (plan.restart) {
    journal.reset();
  }
  if (journal.meta.get('staged') === true) {
    logger.info({ cases: journal.count() }, 'resuming from the journal');
    return;
  }
  journal.reset();
  journal.meta.set('settings', settings);
  progress?.begin({ label: 'staging', unit: 'v1 cases' });
  let idx = 0;
  let batch: StagedCase[] = [];
  for await (const record of client.v1.cases.listAll({ limit: 100 })) {
    const groupKey = groupKeyOf(record, plan.groupBy);
    const claimId = migratedClaimId(groupKey);
    const existing = typeof record.claim_id === 'string' && record.claim_id !== '' ? record.claim_id : undefined;
    // A case in a claim of ours (a journal lost after sending) is staged: the create settles it.
    const skipped = existing !== undefined && existing !== claimId;
    batch.push({ idx: idx++, caseId: record.case_id, groupKey, claimId: skipped ? existing : claimId, skipped });
    if (batch.length >= 100) {
      journal.stage(batch);
      batch = [];
      progress?.staged(idx, 'v1 cases');
    }
  }
  journal.stage(batch);
  journal.meta.set('staged', true);
  logger.info({ cases: journal.count() }, 'v1 cases staged');
}

/** The refusal of a run whose `--group-by` or dry run differs from the journal's, naming which and the two values. */
function migrateMismatch(journalFile: string, then: MigrateSettings, now: MigrateSettings): Error {
  const differences = [];
  if (then.format !== now.format)
    differences.push({
      said: `a journal of format ${shownValue(then.format)}, written by another version of bulk-disputes`,
      resume: 'the version that made it',
    });
  const groupBy = (settings: MigrateSettings) =>
    settings.groupBy.length === 0 ? undefined : settings.groupBy.join(',');
  if (groupBy(then) !== groupBy(now)) differences.push(flagDifference('--group-by', groupBy(then), groupBy(now)));
  if (then.dryRun !== now.dryRun) differences.push(flagDifference('--dry-run', then.dryRun, now.dryRun));
  return madeWithMismatch(
    journalFile,
    'flags',
    differences,
    'a claim already created is recognised, never created twice',
  );
}
