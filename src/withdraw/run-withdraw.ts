import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import { ClaimsClient } from '../api/client/index.js';
import type { NetworkOptions } from '../api/client/config.js';
import { ClaimsHttpError } from '../api/errors.js';
import {
  compareService,
  describeService,
  serviceAt,
  ServiceMismatchError,
  type ServiceIdentity,
} from '../api/service-identity.js';
import type { Claim } from '../api/schemas/claim.js';
import { CircuitBreaker, judgeFailure } from '../import/breaker.js';
import { settle } from '../import/claim/submit.js';
import { JournalMismatchError } from '../journal/open.js';
import { bindService } from '../journal/service-binding.js';
import type { Progress } from '../progress/progress.js';
import { PhaseTimer, type PhaseTime } from '../progress/phases.js';
import { showBreaker, showServiceWaits } from '../progress/service-notices.js';
import { followThrottling, type ThrottlingSummary } from '../rate/follow-throttling.js';
import {
  linesWithUnsettled,
  withdrawJournalFormat,
  WithdrawJournal,
  type TargetRecord,
  type WithdrawLine,
} from '../job-files/withdraw/journal.js';
import { planClaim, type ClaimPlan, type Scope } from './plan.js';
import { previewOf, type WithdrawPreview } from './preview.js';
import { writeWithdrawResults, type WithdrawResultsFormat, type WithdrawSummary } from './results.js';
import { sendRequest } from './send.js';
import { readSources, type SourceOptions, type WithdrawTarget } from './sources.js';
import { namingFile } from '../files/resource-failure.js';

export interface WithdrawOptions {
  sources: readonly string[];
  sourceOptions: SourceOptions;
  scope: Scope;
  deleteUnfiled: boolean;
  service: {
    baseUrl: string;
    apiKey: string;
    identity?: ServiceIdentity | undefined;
    network?: NetworkOptions | undefined;
  };
  journalFile: string;
  resultsFile: string;
  dryRun: boolean;
  concurrency: number;
  maxRps?: number | undefined;
  restart: boolean;
  logger: Logger;
  stopRequested?: () => boolean;
  breakerThreshold?: number;
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
  const current = options.service.identity ?? serviceAt(options.service.baseUrl, options.service.apiKey);
  const journal = new WithdrawJournal(options.journalFile);
  let client: ClaimsClient | undefined;
  const phases = new PhaseTimer();
  try {
    phases.next('reading');
    const binding = bindService(journal, current, {
      file: options.journalFile,
      restart: options.restart,
      holdsJob: journal.meta('fingerprint') !== undefined,
      holdsServiceData: journal.anySent(),
      logger: options.logger,
    });
    if (binding === 'forget') journal.reset({ forgetSent: true });
    const format = await stageOnce(journal, current, options);
    client = new ClaimsClient({
      baseUrl: options.service.baseUrl,
      apiKey: options.service.apiKey,
      concurrency: options.concurrency,
      maxRps: options.maxRps,
      logger: options.logger,
      network: options.service.network,
    });
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
  const fingerprint = JSON.stringify({
    format: withdrawJournalFormat,
    sources: await Promise.all(options.sources.map(sha256Of)),
    scope: options.scope,
    deleteUnfiled: options.deleteUnfiled,
    outcomes: options.sourceOptions.outcomes ?? null,
    claimKeys: options.sourceOptions.claimKeys ?? null,
    column: options.sourceOptions.column ?? null,
    dryRun: options.dryRun,
  });
  const recorded = journal.meta('fingerprint');
  if (recorded !== undefined && recorded !== fingerprint && !options.restart) {
    throw new JournalMismatchError(
      `journal ${options.journalFile}: expected the sources and flags it was made with, got different ones; use --restart to start it over (what it sent is settled, never sent twice) or --journal for a new one`,
    );
  }
  if (recorded === fingerprint && journal.meta('staged') === '1')
    return JSON.parse(journal.meta('results_format') ?? '{}') as WithdrawResultsFormat;
  const read = await readSources(options.sources, options.sourceOptions);
  // A journal's claims are its service's: against another, they are other claims, or none.
  for (const { file, service } of read.services) {
    if (service !== undefined && compareService(service, current).kind === 'other') {
      throw new ServiceMismatchError(
        `${file}: expected a journal of ${describeService(current)}, got one made against ${describeService(service)}; its claims are that service's, so nothing was sent`,
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
    journal.setMeta('fingerprint', fingerprint);
    journal.setMeta('results_format', JSON.stringify(format));
    // What `review` gives as the command that runs this withdraw again: the fingerprint holds only their sha256.
    journal.setMeta('sources', JSON.stringify(options.sources.map((source) => resolve(source))));
    journal.setMeta('staged', '1');
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
  const { progress } = options;
  const stopShowingWaits = progress === undefined ? undefined : showServiceWaits(client, progress);
  const breakerShown = progress === undefined ? undefined : showBreaker(progress);
  const limit = pLimit(options.concurrency);
  const follower = followThrottling({
    client,
    concurrency: options.concurrency,
    apply: (next) => (limit.concurrency = next),
    logger: options.logger,
  });
  const breaker = new CircuitBreaker(options.breakerThreshold ?? 5);
  let fatal: unknown;
  const stop = () => breaker.open || (options.stopRequested?.() ?? false);
  const failed = (error: unknown) => {
    judgeFailure(breaker, error, (fatalError) => (fatal ??= fatalError));
  };
  try {
    // 1. Reads only: every pending claim retrieved and planned, so the confirmation shows it all.
    const pending = journal.pendingTargets();
    const plans = new Map<number, { target: WithdrawTarget; plan: ClaimPlan }>();
    const planned = new Set<string>();
    phases.next('planning');
    progress?.begin({ label: 'planning', unit: 'claims', total: pending.length });
    let done = 0;
    await Promise.all(
      pending.map(async (record) =>
        limit(async () => {
          if (stop()) return;
          try {
            const entry = await planTarget(client, record, options, journal);
            breaker.succeeded();
            // Two sources naming one claim: it is taken back once.
            if (options.scope === 'claim' && entry.found !== undefined) {
              if (planned.has(entry.found.claim_id)) entry.plan = { final: [], requests: [] };
              planned.add(entry.found.claim_id);
            }
            plans.set(record.seq, entry);
          } catch (error) {
            failed(error);
          }
          progress?.update(++done);
          breakerShown?.(breaker);
        }),
      ),
    );
    phases.end();
    const preview = previewOf([...plans.values()], describeService(current));
    const unplanned = pending.length - plans.size;
    if (options.dryRun) {
      for (const [seq, { plan }] of plans)
        journal.settle(
          seq,
          [
            ...plan.final,
            ...plan.requests.flatMap((request) =>
              request.lines.map((line) => ({
                ...line,
                outcome: request.action === 'delete_case' ? 'would_delete' : 'would_withdraw',
              })),
            ),
          ],
          { final: true, attempts: 0 },
        );
      return await finish(journal, options, phases, {
        preview,
        declined: false,
        fatal,
        abortedBecause: unplanned > 0 ? (breaker.why ?? 'stop requested') : undefined,
        throttling: follower.stop(),
        format,
      });
    }
    // 2. A person says yes (or not) before the first write.
    const writes = [...plans.values()].some(({ plan }) => plan.requests.length > 0);
    if (writes && unplanned === 0 && options.confirm !== undefined && !(await options.confirm(preview))) {
      return await finish(journal, options, phases, {
        preview,
        declined: true,
        fatal,
        abortedBecause: undefined,
        throttling: follower.stop(),
        format,
      });
    }
    // 3. Each withdrawal or delete once; the lines settled with it. Nothing is written while the plan is incomplete.
    let notStarted = 0;
    phases.next('withdrawing');
    progress?.begin({ label: 'withdrawing', unit: 'claims', total: plans.size });
    done = 0;
    await Promise.all(
      [...plans].map(async ([seq, { plan }]) =>
        limit(async () => {
          if (stop() || (unplanned > 0 && plan.requests.length > 0)) {
            notStarted++;
            return;
          }
          const lines: WithdrawLine[] = [...plan.final];
          let final = true;
          let attempts = 0;
          for (const request of plan.requests) {
            try {
              const outcome = await sendRequest(client, journal, request);
              lines.push(...outcome.lines);
              final &&= outcome.final;
              attempts += outcome.attempts;
              if (outcome.final) breaker.succeeded();
              else breaker.failed(outcome.lines[0]?.errorMessage ?? 'failed');
            } catch (error) {
              failed(error);
              return;
            }
          }
          journal.settle(seq, lines, { final, attempts });
          // The running counts, per case, as the results will say them.
          for (const line of lines) progress?.count(line.outcome);
          progress?.update(++done);
          breakerShown?.(breaker);
        }),
      ),
    );
    const stoppedEarly = unplanned > 0 || notStarted > 0 || breaker.open;
    return await finish(journal, options, phases, {
      preview,
      declined: false,
      fatal,
      abortedBecause: stoppedEarly ? (breaker.why ?? 'stop requested') : undefined,
      throttling: follower.stop(),
      format,
    });
  } finally {
    stopShowingWaits?.();
    follower.stop();
  }
}

/** One target's claim, retrieved (a case-only target's by its case) and planned. */
async function planTarget(
  client: ClaimsClient,
  record: TargetRecord,
  options: WithdrawOptions,
  journal: WithdrawJournal,
): Promise<{ target: WithdrawTarget; plan: ClaimPlan; found: Claim | undefined }> {
  const target: WithdrawTarget = {
    claimId: record.claim_id,
    claimKey: record.claim_key,
    caseIds: JSON.parse(record.case_ids) as string[],
    ...(record.proof === null ? {} : { proof: JSON.parse(record.proof) as NonNullable<WithdrawTarget['proof']> }),
  };
  if (target.claimId === '') {
    const claimId = await claimOfCase(client, target.caseIds[0] ?? '');
    if (claimId === undefined) {
      const lines = target.caseIds.map((caseId) => notFoundCase(target, caseId, journal));
      return { target, plan: { final: lines, requests: [] }, found: undefined };
    }
    target.claimId = claimId;
  }
  const found = await settle(client, target.claimId);
  const plan = planClaim(target, found, {
    scope: options.scope,
    deleteUnfiled: options.deleteUnfiled,
    wasSent: (id, action) => journal.wasSent(id, action),
  });
  return { target, plan, found };
}

async function claimOfCase(client: ClaimsClient, caseId: string): Promise<string | undefined> {
  try {
    const held = (await client.cases.retrieve(caseId)).data as { claim_id?: string | null };
    return typeof held.claim_id === 'string' && held.claim_id !== '' ? held.claim_id : undefined;
  } catch (error) {
    if (error instanceof ClaimsHttpError && error.status === 404) return undefined;
    throw error;
  }
}

/** A listed case the service does not hold: gone by this job's delete, or never there. */
function notFoundCase(target: WithdrawTarget, caseId: string, journal: WithdrawJournal): WithdrawLine {
  const deleted = journal.wasSent(caseId, 'delete_case');
  return {
    claimKey: target.claimKey,
    claimId: '',
    caseId,
    statusBefore: deleted ? 'created' : '',
    outcome: deleted ? 'deleted' : 'not_found',
    statusAfter: deleted ? 'deleted' : '',
    errorCode: deleted ? '' : 'not_found',
    errorMessage: deleted ? '' : `case ${caseId}: expected at the service, got none (404): nothing to take back`,
    httpStatus: deleted ? '' : '404',
    attempts: 0,
  };
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
