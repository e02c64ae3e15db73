import { setTimeout as sleep } from 'node:timers/promises';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import { ClaimsClient } from '../api/client/index.js';
import { serviceAt, type ServiceIdentity } from '../api/service-identity.js';
import { bindService } from '../import/journal/service-binding.js';
import { AuthenticationError, ClaimsHttpError, OutcomeUnknownError } from '../api/errors.js';
import { CircuitBreaker } from '../import/breaker.js';
import { isRefusal, settle } from '../import/claim/submit.js';
import type { Progress } from '../import/progress.js';
import { JournalMismatchError } from '../import/run-import.js';
import { followThrottling, type ThrottlingSummary } from '../rate/follow-throttling.js';
import { groupKeyOf, migratedClaimId } from './group.js';
import { MigrateJournal, migrateJournalFormat, type MigrateRow, type Problem, type StagedCase } from './journal.js';
import { writeMigrateResults, type MigrateSummary } from './results.js';

export interface MigrateOptions {
  /** Where to migrate; `identity` names it in the journal (issue 19), by default the base URL and the key's environment. */
  service: { baseUrl: string; apiKey: string; identity?: ServiceIdentity | undefined };
  journalFile: string;
  resultsFile: string;
  groupBy: readonly string[];
  dryRun: boolean;
  /** The most claims in flight; fewer while the service throttles (issue 13). */
  concurrency: number;
  /** Requests per second for the whole job (`--max-rps`); undefined: no limit. */
  maxRps?: number | undefined;
  restart: boolean;
  logger: Logger;
  stopRequested?: () => boolean;
  /** Claims failing on the service's side in a row before the run stops (exit 3). */
  breakerThreshold?: number;
  /** The terminal's progress bar (silent when stderr is not a terminal). */
  progress?: Progress | undefined;
}

export interface MigrateReport {
  summary: MigrateSummary;
  /** The run stopped early (service down, stop requested): resumable. */
  abortedBecause?: string | undefined;
  /** Authentication refused: the caller rethrows it (exit 3). */
  fatal?: unknown;
  claimsCreated: number;
  claimsAdopted: number;
  /** How often the service throttled, and where the claims in flight settled (issue 13). */
  throttling: ThrottlingSummary;
}

/** A create may be sent again after this many settles that found nothing. */
const maxSends = 3;
const settleDelayMs = 1000;

/**
 * migrate-v1 (issue 6): stage every v1 case into the journal, grouped into claims; then, per
 * claim, `POST /v2/issuer/claims {case_ids, claim_id}` exactly once (architecture.md, "No
 * duplicates, ever"); then the results CSV from the journal. Run again, it continues.
 */
export async function runMigrate(options: MigrateOptions): Promise<MigrateReport> {
  const journal = new MigrateJournal(options.journalFile);
  try {
    // Before the listing, the first request: a journal of another service is refused (issue 19).
    const binding = bindService(journal, options.service.identity ?? serviceAt(options.service.baseUrl, options.service.apiKey), {
      file: options.journalFile,
      restart: options.restart,
      holdsJob: journal.meta('settings') !== undefined,
      holdsServiceData: journal.meta('staged') === 'complete',
      logger: options.logger,
    });
    if (binding === 'forget') journal.reset();
  } catch (error) {
    journal.close();
    throw error;
  }
  const client = new ClaimsClient({ baseUrl: options.service.baseUrl, apiKey: options.service.apiKey, concurrency: options.concurrency, maxRps: options.maxRps, logger: options.logger });
  // The claims in flight follow the service: halved on each 429 or 503, one more after a run of
  // successes (rate/adaptive-concurrency.ts); p-limit applies a new limit to the claims it starts next.
  const limit = pLimit(options.concurrency);
  const apply = (next: number) => {
    limit.concurrency = next;
  };
  const follower = followThrottling({ client, concurrency: options.concurrency, apply, logger: options.logger });
  try {
    await stageAll(journal, client, options);
    const run = new ClaimRun(journal, client, options);
    const queue = journal.pendingGroups();
    let started = 0;
    let done = 0;
    const stop = () => run.breaker.open || (options.stopRequested?.() ?? false);
    options.progress?.claims(done, queue.length);
    await Promise.all(
      queue.map(async (groupKey) =>
        limit(async () => {
          // Queued before a stop: not started, left for the next run.
          if (stop()) return;
          started++;
          await run.migrate(groupKey);
          options.progress?.claims(++done, queue.length);
        }),
      ),
    );
    options.progress?.done();
    const throttling = follower.stop();
    options.logger.info({ throttling }, 'sending paced');
    const summary = await writeMigrateResults(journal, options.resultsFile);
    const stoppedEarly = started < queue.length || run.breaker.open;
    return {
      summary,
      abortedBecause: stoppedEarly ? (run.breaker.why ?? 'stop requested') : undefined,
      fatal: run.fatal,
      claimsCreated: run.created,
      claimsAdopted: run.adopted,
      throttling,
    };
  } finally {
    follower.stop();
    options.progress?.done();
    journal.close();
    await client.close();
  }
}

/** Lists the v1 cases into the journal once; a staging cut short starts over (nothing was sent). */
async function stageAll(journal: MigrateJournal, client: ClaimsClient, options: MigrateOptions): Promise<void> {
  const settings = JSON.stringify({ format: migrateJournalFormat, groupBy: options.groupBy, dryRun: options.dryRun });
  const recorded = journal.meta('settings');
  if (recorded !== undefined && recorded !== settings) {
    if (!options.restart) {
      throw new JournalMismatchError(`journal: expected the settings it was made with (${recorded}), got ${settings}; run with --restart to start over, or give another --journal`);
    }
    journal.reset();
  } else if (options.restart) {
    journal.reset();
  }
  if (journal.meta('staged') === 'complete') {
    options.logger.info({ cases: journal.count() }, 'resuming from the journal');
    return;
  }
  journal.reset();
  journal.setMeta('settings', settings);
  let idx = 0;
  let batch: StagedCase[] = [];
  for await (const record of client.v1.cases.listAll({ limit: 100 })) {
    const groupKey = groupKeyOf(record, options.groupBy);
    const claimId = migratedClaimId(groupKey);
    const existing = typeof record.claim_id === 'string' && record.claim_id !== '' ? record.claim_id : undefined;
    // A case in a claim of ours (a journal lost after sending) is staged: the create settles it.
    const skipped = existing !== undefined && existing !== claimId;
    batch.push({ idx: idx++, caseId: record.case_id, groupKey, claimId: skipped ? existing : claimId, skipped });
    if (batch.length >= 100) {
      journal.stage(batch);
      batch = [];
      options.progress?.staged(idx, 'v1 cases');
    }
  }
  journal.stage(batch);
  journal.setMeta('staged', 'complete');
  options.logger.info({ cases: journal.count() }, 'v1 cases staged');
}

class ClaimRun {
  readonly breaker: CircuitBreaker;
  fatal: unknown;
  created = 0;
  adopted = 0;

  constructor(
    private readonly journal: MigrateJournal,
    private readonly client: ClaimsClient,
    private readonly options: MigrateOptions,
  ) {
    this.breaker = new CircuitBreaker(options.breakerThreshold ?? 10);
  }

  async migrate(groupKey: string): Promise<void> {
    const rows = this.journal.groupRows(groupKey);
    const first = rows[0];
    if (first === undefined) return;
    if (this.options.dryRun) {
      this.journal.setGroupStep(groupKey, 'valid');
      return;
    }
    const claimId = migratedClaimId(groupKey);
    try {
      // An earlier run may have sent it: look before sending again.
      if ((first.step === 'submitting' || first.step === 'failed') && (await this.settled(groupKey, claimId))) return;
      await this.send(groupKey, claimId, rows);
    } catch (error) {
      this.failed(groupKey, error);
    }
  }

  private async send(groupKey: string, claimId: string, initialRows: MigrateRow[]): Promise<void> {
    let rows = initialRows;
    for (let sends = 1; ; sends++) {
      this.journal.setGroupStep(groupKey, 'submitting');
      try {
        const { attempts } = await this.client.claims.create({ case_ids: rows.map((row) => row.case_id), claim_id: claimId });
        this.journal.addAttempts(groupKey, attempts);
        this.journal.setGroupStep(groupKey, 'migrated');
        this.created++;
        this.breaker.succeeded();
        return;
      } catch (error) {
        this.journal.addAttempts(groupKey, (error as { attempts?: number }).attempts ?? 1);
        const conflict = error instanceof ClaimsHttpError && error.status === 409;
        if (error instanceof OutcomeUnknownError || conflict) {
          if (error instanceof OutcomeUnknownError) await sleep(settleDelayMs);
          if (await this.settled(groupKey, claimId)) return;
          if (conflict) {
            // No claim of ours: some case of the group belongs to another claim by now.
            const moved = await this.skipOwnedElsewhere(rows, claimId);
            rows = this.journal.groupRows(groupKey);
            if (rows.length === 0) return;
            if (moved > 0 && sends < maxSends) continue;
            this.journal.setGroupStep(groupKey, 'rejected', problemOf(error));
            return;
          }
          if (sends >= maxSends) throw error;
          continue;
        }
        if (isRefusal(error)) {
          // A refusal of a resend may be the service's way of saying the first send worked.
          if (sends > 1 && (await this.settled(groupKey, claimId))) return;
          this.journal.setGroupStep(groupKey, 'rejected', problemOf(error));
          this.breaker.succeeded();
          return;
        }
        throw error;
      }
    }
  }

  /** Retrieves the claim by its id: found → adopted (migrated). */
  private async settled(groupKey: string, claimId: string): Promise<boolean> {
    const found = await settle(this.client, claimId);
    if (found === undefined) return false;
    this.journal.setGroupStep(groupKey, 'migrated');
    this.adopted++;
    this.breaker.succeeded();
    return true;
  }

  private async skipOwnedElsewhere(rows: readonly MigrateRow[], claimId: string): Promise<number> {
    let moved = 0;
    for (const row of rows) {
      const { data } = await this.client.cases.retrieve(row.case_id);
      const owner = (data as { claim_id?: string | null }).claim_id;
      if (typeof owner === 'string' && owner !== '' && owner !== claimId) {
        this.journal.skip(row.case_id, owner);
        moved++;
      }
    }
    return moved;
  }

  private failed(groupKey: string, error: unknown): void {
    if (error instanceof AuthenticationError) {
      // Left as it stands (submitting settles next run); the run stops.
      this.fatal ??= error;
      this.breaker.trip(error.message);
      return;
    }
    const problem = problemOf(error);
    this.journal.setGroupStep(groupKey, 'failed', problem);
    this.breaker.failed(`${problem.code}: ${problem.message}`);
    this.options.logger.warn({ groupKey, code: problem.code, error: problem.message }, 'claim failed; the next run tries it again');
  }
}

function problemOf(error: unknown): Problem {
  if (error instanceof ClaimsHttpError) {
    const item = error.errors[0];
    const code = item?.code !== undefined && item.code !== '' ? item.code : error.code;
    const message = error.errors.length > 0 ? error.errors.map((entry) => entry.message).join('; ') : error.serviceMessage || error.message;
    return { code, message, httpStatus: error.status };
  }
  const code = (error as { code?: unknown }).code;
  return {
    code: typeof code === 'string' ? code : 'internal_error',
    message: error instanceof Error ? error.message : String(error),
    httpStatus: (error as { status?: number }).status,
  };
}
