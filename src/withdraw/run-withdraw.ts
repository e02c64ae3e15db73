import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { clientOf, identityOf, type ServiceTarget } from '../api/service-target.js';
import { ClaimsClient } from '../api/client/index.js';
import {
  compareService,
  describeService,
  ServiceMismatchError,
  type ServiceIdentity,
} from '../api/service-identity.js';
import { withdrawMismatch } from './made-with.js';
import type { WithdrawFingerprint } from '../job-files/withdraw/meta.js';
import { sameRecord } from '../journal/meta.js';
import { bindService } from '../journal/service-binding.js';
import type { Progress } from '../progress/progress.js';
import { PhaseTimer, type PhaseTime } from '../progress/phases.js';
import { senderNotices } from '../progress/service-notices.js';
import type { ThrottlingSummary } from '../rate/follow-throttling.js';
import { Sender } from '../rate/sender.js';
import { resolvePacing, type SendingOptions } from '../rate/pacing.js';
import { linesWithUnsettled, withdrawJournalFormat, WithdrawJournal } from '../job-files/withdraw/journal.js';
import type { Scope } from './plan.js';
import { planTargets } from './plan-targets.js';
import { previewOf, type WithdrawPreview } from './preview.js';
import { writeWithdrawResults, type WithdrawResultsFormat, type WithdrawSummary } from './results.js';
import { sendPlans, settleDryRun } from './send-plans.js';
import { readSources, type SourceOptions } from './sources.js';
import { namingFile } from '../files/resource-failure.js';

export interface WithdrawOptions extends SendingOptions {
  sources: readonly string[];
  sourceOptions: SourceOptions;
  scope: Scope;
  deleteUnfiled: boolean;
  service: ServiceTarget;
  journalFile: string;
  resultsFile: string;
  dryRun: boolean;
  restart: boolean;
  progress?: Progress | undefined;
  /**
   * Asked once every claim is planned and before anything is sent: the CLI asks a person on a
   * terminal when the key is live. False: nothing is sent.
   */
  confirm?: ((preview: WithdrawPreview) => Promise<boolean>) | undefined;
}

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
 * `bulk-disputes withdraw`: the claims the sources name, each retrieved and planned (plan.ts), the
 * plan confirmed when it must be, then each withdrawal or delete sent once (send.ts), and the
 * results written from the journal. Run again, it continues and, once done, sends nothing.
 */
export async function runWithdraw(options: WithdrawOptions): Promise<WithdrawReport> {
  const current = identityOf(options.service);
  const journal = new WithdrawJournal(options.journalFile);
  let client: ClaimsClient | undefined;
  const phases = new PhaseTimer();
  try {
    phases.next('reading');
    const binding = bindService(journal.meta, current, {
      file: options.journalFile,
      restart: options.restart,
      holdsJob: journal.meta.has('fingerprint'),
      holdsServiceData: journal.anySent(),
      logger: options.logger,
    });
    if (binding === 'forget') journal.reset({ forgetSent: true });
    const format = await stageOnce(journal, current, options);
    client = clientOf(options.service, options);
    return await planAndSend(journal, client, current, options, format, phases);
  } finally {
    options.progress?.done();
    journal.close();
    await client?.close();
  }
}

/** Reads the sources into the journal once (a journal staged for the same sources and flags is resumed). */
async function stageOnce(
  journal: WithdrawJournal,
  current: ServiceIdentity,
  options: WithdrawOptions,
): Promise<WithdrawResultsFormat> {
  const fingerprintParts: WithdrawFingerprint = {
    format: withdrawJournalFormat,
    sources: await Promise.all(options.sources.map(sha256Of)),
    scope: options.scope,
    deleteUnfiled: options.deleteUnfiled,
    outcomes: options.sourceOptions.outcomes ?? null,
    claimKeys: options.sourceOptions.claimKeys ?? null,
    column: options.sourceOptions.column ?? null,
    dryRun: options.dryRun,
  };
  const recorded = journal.meta.get('fingerprint');
  const same = recorded !== undefined && sameRecord(recorded, fingerprintParts);
  if (recorded !== undefined && !same && !options.restart)
    throw withdrawMismatch(options.journalFile, recorded, fingerprintParts);
  if (same && journal.meta.get('staged') === true) return journal.meta.get('results_format') ?? {};
  const read = await readSources(options.sources, options.sourceOptions);
  // A journal's claims are its service's: against another, they are other claims, or none.
  for (const { file, service } of read.services) {
    if (service !== undefined && compareService(service, current).kind === 'other') {
      throw new ServiceMismatchError(
        `${file}: expected a journal of ${describeService(current)}, got one made against ` +
          `${describeService(service)}; its claims are that service's, so nothing was sent`,
      );
    }
  }
  for (const skipped of read.skipped)
    options.logger.warn(skipped, 'a line of the sources names no claim or case to take back: skipped');
  if (read.unmatchedClaimKeys.length > 0)
    options.logger.warn(
      { claimKeys: read.unmatchedClaimKeys },
      '--claim-key: no claim the sources could take back has these keys',
    );
  const format: WithdrawResultsFormat =
    read.csvDialect === undefined ? {} : { delimiter: read.csvDialect.delimiter, quote: read.csvDialect.quote };
  journal.database.transaction(() => {
    journal.reset();
    journal.stage(read.targets);
    journal.meta.set('fingerprint', fingerprintParts);
    journal.meta.set('results_format', format);
    // What `review` gives as the command that runs this withdraw again: the fingerprint holds only their sha256.
    journal.meta.set(
      'sources',
      options.sources.map((source) => resolve(source)),
    );
    journal.meta.set('staged', true);
  })();
  return format;
}

async function planAndSend(
  journal: WithdrawJournal,
  client: ClaimsClient,
  current: ServiceIdentity,
  options: WithdrawOptions,
  format: WithdrawResultsFormat,
  phases: PhaseTimer,
): Promise<WithdrawReport> {
  const sender = new Sender({
    client,
    pacing: resolvePacing(options, { breakerThreshold: 5 }),
    logger: options.logger,
    notices: senderNotices(options.progress),
  });
  const ending = async (preview: WithdrawPreview, declined: boolean, stoppedEarly: boolean) =>
    finish(journal, options, phases, {
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
    const plans = await planTargets(pending, client, journal, sender, options);
    phases.end();
    const preview = previewOf([...plans.values()], describeService(current));
    const unplanned = pending.length - plans.size;
    if (options.dryRun) {
      settleDryRun(journal, plans);
      return await ending(preview, false, unplanned > 0);
    }
    // 2. A person says yes (or not) before the first write.
    const writes = [...plans.values()].some(({ plan }) => plan.requests.length > 0);
    if (writes && unplanned === 0 && options.confirm !== undefined && !(await options.confirm(preview)))
      return await ending(preview, true, false);
    // 3. Each withdrawal or delete once; the lines settled with it. Nothing is written while the plan is incomplete.
    phases.next('withdrawing');
    const notStarted = await sendPlans(plans, unplanned, client, journal, sender, options.progress);
    return await ending(preview, false, unplanned > 0 || notStarted > 0 || sender.breaker.open);
  } finally {
    sender.finish();
  }
}

async function finish(
  journal: WithdrawJournal,
  options: WithdrawOptions,
  phases: PhaseTimer,
  report: Omit<WithdrawReport, 'summary' | 'phases'>,
): Promise<WithdrawReport> {
  options.progress?.done();
  phases.next('results');
  // A full disk while writing the results names them: the journal holds everything.
  const summary = await writeWithdrawResults(linesWithUnsettled(journal), options.resultsFile, report.format).catch(
    namingFile(options.resultsFile, { resumes: true }),
  );
  return { ...report, summary, phases: phases.end() };
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}
