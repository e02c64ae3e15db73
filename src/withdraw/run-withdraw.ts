import { resolve } from 'node:path';
import type { ClaimsClient } from '../api/client/index.js';
import { compareService, describeService, ServiceMismatchError } from '../api/service-identity.js';
import { withdrawMismatch } from './made-with.js';
import { sameRecord } from '../journal/meta.js';
import { recordWrittenFiles } from '../journal/retention-meta.js';
import { withBoundJournal } from '../journal/bound-journal.js';
import { PhaseTimer, type PhaseTime } from '../progress/phases.js';
import { senderNotices } from '../progress/service-notices.js';
import type { ThrottlingSummary } from '../rate/follow-throttling.js';
import { Sender } from '../rate/sender.js';
import { linesWithUnsettled, WithdrawJournal } from '../job-files/withdraw/journal.js';
import { planTargets } from './plan-targets.js';
import { resolveWithdrawPlan, type WithdrawPlan, type WithdrawRequest } from './plan.js';
import { previewOf, type WithdrawPreview } from './preview.js';
import { writeWithdrawResults, type WithdrawResultsFormat, type WithdrawSummary } from './results.js';
import { sendPlans, settleDryRun } from './send-plans.js';
import { readSources } from './sources.js';
import type { WithdrawWork } from './withdraw-work.js';
import { namingFile } from '../files/resource-failure.js';

export type { WithdrawRequest } from './plan.js';

export interface WithdrawReport {
  summary: WithdrawSummary;
  preview: WithdrawPreview;
  /** The person said no: nothing was sent. */
  declined: boolean;
  abortedBecause?: string | undefined;
  fatal?: unknown;
  throttling: ThrottlingSummary;
  /** The results' format, from the first source (CSV dialect), for the CLI to tell. */
  format: WithdrawResultsFormat;
  /** How long reading the sources, planning, withdrawing and writing the results took; a confirmation's wait is in none. */
  phases: PhaseTime[];
}

/**
 * `bulk-disputes withdraw`: the claims the sources name, each retrieved and planned
 * (withdrawals.ts), the plan confirmed when it must be, then each withdrawal or delete sent once
 * (send.ts), and the results written from the journal. Run again, it continues and, once done,
 * sends nothing.
 */
export async function runWithdraw(request: WithdrawRequest): Promise<WithdrawReport> {
  const phases = new PhaseTimer();
  // Reading starts with hashing the sources.
  phases.next('reading');
  return withdrawByPlan(await resolveWithdrawPlan(request), phases);
}

async function withdrawByPlan(plan: WithdrawPlan, phases: PhaseTimer): Promise<WithdrawReport> {
  return withBoundJournal(WithdrawJournal, plan, async (journal, connect) => {
    const format = await stageOnce(journal, plan);
    return planAndSend(journal, connect(), plan, format, phases);
  });
}

/** Reads the sources into the journal once (a journal staged for the same sources and flags is resumed). */
async function stageOnce(journal: WithdrawJournal, plan: WithdrawPlan): Promise<WithdrawResultsFormat> {
  const { fingerprint, identity, logger } = plan;
  const recorded = journal.meta.get('fingerprint');
  const same = recorded !== undefined && sameRecord(recorded, fingerprint);
  if (recorded !== undefined && !same && !plan.restart)
    throw withdrawMismatch(plan.files.journalFile, recorded, fingerprint);
  if (same && journal.meta.get('staged') === true) return journal.meta.get('results_format') ?? {};
  const read = await readSources(plan.sources.files, plan.sources.filter);
  // A journal's claims are its service's: against another, they are other claims, or none.
  for (const { file, service } of read.services) {
    if (service !== undefined && compareService(service, identity).kind === 'other') {
      throw new ServiceMismatchError(
        `${file}: expected a journal of ${describeService(identity)}, got one made against ` +
          `${describeService(service)}; its claims are that service's, so nothing was sent`,
      );
    }
  }
  for (const skipped of read.skipped)
    logger.warn(skipped, 'a line of the sources names no claim or case to take back: skipped');
  if (read.unmatchedClaimKeys.length > 0)
    logger.warn(
      { claimKeys: read.unmatchedClaimKeys },
      '--claim-key: no claim the sources could take back has these keys',
    );
  const format: WithdrawResultsFormat =
    read.csvDialect === undefined ? {} : { delimiter: read.csvDialect.delimiter, quote: read.csvDialect.quote };
  journal.database.transaction(() => {
    journal.reset();
    journal.stage(read.targets);
    journal.meta.set('fingerprint', fingerprint);
    journal.meta.set('results_format', format);
    // What `review` gives as the command that runs this withdraw again: the fingerprint holds only their sha256.
    journal.meta.set(
      'sources',
      plan.sources.files.map((source) => resolve(source)),
    );
    journal.meta.set('staged', true);
  })();
  return format;
}

async function planAndSend(
  journal: WithdrawJournal,
  client: ClaimsClient,
  plan: WithdrawPlan,
  format: WithdrawResultsFormat,
  phases: PhaseTimer,
): Promise<WithdrawReport> {
  const { mode, progress } = plan;
  const sender = new Sender({ client, pacing: plan.pacing, logger: plan.logger, notices: senderNotices(progress) });
  const work: WithdrawWork = { journal, client, sender };
  const ending = async (preview: WithdrawPreview, declined: boolean, stoppedEarly: boolean) =>
    finish(journal, plan, phases, {
      preview,
      declined,
      fatal: sender.fatal,
      abortedBecause: stoppedEarly ? (sender.breaker.why ?? 'stop requested') : undefined,
      throttling: sender.finish(),
      format,
    });
  try {
    // 1. Reads only: every pending claim retrieved and planned, so the confirmation shows it all.
    const pending = journal.pendingTargets();
    phases.next('planning');
    const plans = await planTargets(pending, work, plan);
    phases.end();
    const preview = previewOf([...plans.values()], describeService(plan.identity));
    const unplanned = pending.length - plans.size;
    if (mode.kind === 'check') {
      settleDryRun(journal, plans);
      return await ending(preview, false, unplanned > 0);
    }
    // 2. A person says yes (or not) before the first write.
    const writes = [...plans.values()].some((planned) => planned.plan.requests.length > 0);
    if (writes && unplanned === 0 && mode.confirm !== undefined && !(await mode.confirm(preview)))
      return await ending(preview, true, false);
    // 3. Each withdrawal or delete once; the lines settled with it. Nothing is written while the plan is incomplete.
    phases.next('withdrawing');
    const notStarted = await sendPlans(plans, unplanned, work, progress);
    return await ending(preview, false, unplanned > 0 || notStarted > 0 || sender.breaker.open);
  } finally {
    sender.finish();
  }
}

async function finish(
  journal: WithdrawJournal,
  plan: WithdrawPlan,
  phases: PhaseTimer,
  report: Omit<WithdrawReport, 'summary' | 'phases'>,
): Promise<WithdrawReport> {
  const { resultsFile } = plan.files;
  recordWrittenFiles(journal.meta, [{ path: resolve(resultsFile), role: 'results' }]);
  plan.progress?.done();
  phases.next('results');
  // A full disk while writing the results names them: the journal holds everything.
  const summary = await writeWithdrawResults(linesWithUnsettled(journal), resultsFile, report.format).catch(
    namingFile(resultsFile, { resumes: true }),
  );
  return { ...report, summary, phases: phases.end() };
}
