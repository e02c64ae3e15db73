import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ClaimsHttpError, ClaimsNetworkError, OutcomeUnknownError } from '../api/errors.js';
import { isFatalFailure } from '../rate/breaker.js';
import type { ThrottlingSummary } from '../rate/follow-throttling.js';
import { Sender, type FollowedClient, type SenderNotices } from '../rate/sender.js';
import { PrepareAhead, type ClaimAhead } from './claim/prepare-ahead.js';
import { processClaim, type ClaimWork } from './claim/process-claim.js';
import type { ClaimRecord, Journal, RowProblem } from './journal/journal.js';
import type { StagingFrontier } from './stage/frontier.js';
import type { SettledRows } from './settled-rows.js';
import { codeOf } from '../errors/coded-error.js';

export interface ProcessOptions {
  work: ClaimWork;
  /** After each claim this run worked on, whatever became of it (the progress line counts its rows). */
  onClaimDone?: (claimKey: string) => void;
  /** The service's waits and the breaker on the progress line, how near the run is to stopping. */
  notices?: SenderNotices | undefined;
  /** Staging still goes on: a claim is taken once its rows are in (src/import/stage/frontier.ts). */
  frontier?: StagingFrontier | undefined;
  /** Once, when the first claim is taken, or when there is none to take. */
  onFirstClaim?: () => void;
  /** Told which claims are taken and done, for the results written meanwhile (src/import/settled-rows.ts). */
  settled?: SettledRows | undefined;
}

export interface ProcessSummary {
  /** Why the run stopped early, when it did: claims not reached stay in the journal for the next run. */
  abortedBecause: string | undefined;
  /** How often the service throttled and where the claims in flight settled; absent in a dry run. */
  throttling: ThrottlingSummary | undefined;
}

const pageSize = 200;

/**
 * Every claim not yet final, at most `concurrency` at a time. Backpressure is a pull: p-limit's
 * own queue is unbounded, so no claim is read from the journal while the window (2 x concurrency)
 * is full; memory is bounded by the window, not the file.
 * The claims in flight follow the service's 503s, up to `concurrency`, and its 429s set the pace
 * (docs/rate-limits.md).
 */
export async function processClaims(options: ProcessOptions): Promise<ProcessSummary> {
  const { work } = options;
  const sender = new Sender<FollowedClient | undefined>({
    // A dry run sends nothing, so follows nothing; the breaker and the stop check still hold.
    client: work.mode.kind === 'send' ? work.mode.client : undefined,
    pacing: work.plan.pacing,
    logger: work.logger,
    notices: options.notices,
  });
  let abortedBecause: string | undefined;
  let throttling: ThrottlingSummary | undefined;
  try {
    abortedBecause = await processAll(options, sender);
  } finally {
    throttling = sender.finish();
    if (throttling !== undefined) work.logger.info({ throttling }, 'sending paced');
  }
  return { abortedBecause, throttling };
}

async function processAll(
  options: ProcessOptions,
  sender: Sender<FollowedClient | undefined>,
): Promise<string | undefined> {
  const { work, settled } = options;
  const { journal } = work;
  const window = work.plan.pacing.concurrency * 2;
  const running = new Set<Promise<void>>();

  // The claims waiting in the window are prepared while the claims in flight wait on the network.
  const prepareAhead = new PrepareAhead(journal, work.stagedHere, work.plan.evidence);
  // Never rejects: whatever happens to one claim is recorded, so every task settles before the end.
  const run = async (claim: Parameters<typeof processClaim>[0], ahead: ClaimAhead) => {
    // Queued in p-limit before a stop: not started at all, left for the next run.
    if (sender.stopping) {
      ahead.drop();
      return;
    }
    // Every line a claim's steps log names the claim.
    const claimWork = { ...work, logger: work.logger.child({ claimId: claim.claim_id }) };
    try {
      await processClaim(claim, claimWork, ahead);
      sender.succeeded();
    } catch (error) {
      try {
        recordFailure(claim, error, claimWork, sender);
      } catch (bookkeeping) {
        // The journal itself failed (disk full, say): nothing more can be recorded.
        sender.stopFor(bookkeeping);
      }
    } finally {
      // Whatever the claim's step was, the pump has nothing more to do for it.
      ahead.drop();
      options.onClaimDone?.(claim.claim_key);
      sender.showBreaker();
    }
  };
  // Woken when a task ends, so the puller waits on one promise, not a race over the whole window
  // (which would hang a reaction on every task in flight for every claim pulled).
  let wakePuller: (() => void) | undefined;
  const taskEnded = (task: Promise<void>) => {
    running.delete(task);
    wakePuller?.();
    wakePuller = undefined;
  };
  const someTaskEnded = async () =>
    new Promise<void>((resolve) => {
      wakePuller = resolve;
    });
  const waitForStaging = stagingWait(options.frontier);
  let firstClaim = options.onFirstClaim;
  let after = -1;
  pulling: for (;;) {
    const page = journal.pendingClaims(after, pageSize);
    if (page.length === 0) {
      if (await waitForStaging.more()) continue;
      settled?.passedAll();
      break;
    }
    // Once staging is over a row changes only in its own claim's turn, so the page's rows are read
    // with it, in one statement; while staging goes on, each claim's are read in its turn.
    const pageRows = waitForStaging.over()
      ? journal.rowsOfPendingClaims(after, page.at(-1)?.first_idx ?? after)
      : undefined;
    // Dry-run claims finish without real I/O: without a turn of the event loop here, Ctrl-C and
    // SIGTERM would wait until every claim is done.
    await yieldToEventLoop();
    for (const claim of page) {
      // Staging went on meanwhile: the page is read again, as it stands now.
      if (!waitForStaging.isReady(claim)) {
        if (!(await waitForStaging.more())) break pulling;
        continue pulling;
      }
      after = claim.first_idx;
      while (running.size >= window) await someTaskEnded();
      if (sender.stopping) break pulling;
      if (!waitForStaging.take(claim, journal)) {
        settled?.passed(claim.first_idx);
        continue;
      }
      firstClaim?.();
      firstClaim = undefined;
      const ahead = prepareAhead.schedule(
        claim,
        pageRows === undefined ? undefined : (pageRows.get(claim.claim_key) ?? []),
      );
      settled?.taken(claim.claim_key, claim.first_idx);
      const task: Promise<void> = sender
        .limit(async () => run(claim, ahead))
        .finally(() => {
          taskEnded(task);
          settled?.done(claim.claim_key);
        });
      running.add(task);
    }
  }
  firstClaim?.();
  await Promise.allSettled(running);
  if (sender.fatal !== undefined) throw sender.fatal as Error;
  const unfinished = journal.pendingCount() > 0;
  return sender.breaker.why ?? (sender.stopRequested && unfinished ? 'stopped by a signal' : undefined);
}

/**
 * The puller's side of a staging that goes on (src/import/stage/frontier.ts); with none, every
 * claim is ready and there is never more to wait for.
 *
 * Staging's last check sets right the claims that lost rows to duplicates, their first row moved
 * later: a claim taken before could then come again after the puller's place, so the claims taken
 * while staging went on are remembered (as many as were sent meanwhile) and not taken twice. A
 * claim left with no row of its own is not taken: staging's end removes it.
 */
function stagingWait(frontier: StagingFrontier | undefined): {
  isReady(claim: ClaimRecord): boolean;
  /** Every record is staged and checked: no row changes now but in its own claim's turn. */
  over(): boolean;
  more(): Promise<boolean>;
  take(claim: ClaimRecord, journal: Journal): boolean;
} {
  if (frontier === undefined)
    return { isReady: () => true, over: () => true, more: async () => false, take: () => true };
  const takenWhileStaging = new Set<string>();
  return {
    isReady: (claim) => frontier.isReady(claim.claim_key),
    over: () => frontier.staged,
    more: async () => {
      if (frontier.staged || frontier.failed) return false;
      await frontier.change();
      return !frontier.failed;
    },
    take: (claim, journal) => {
      if (takenWhileStaging.has(claim.claim_key)) return false;
      if (frontier.staged) return true;
      if (journal.rowsOf(claim.claim_key).length === 0) return false;
      takenWhileStaging.add(claim.claim_key);
      return true;
    },
  };
}

/** A claim that failed: recorded for the next run, and counted by the breaker when the service is at fault. */
function recordFailure(
  claim: Parameters<typeof processClaim>[0],
  error: unknown,
  { journal, logger }: ClaimWork,
  sender: Sender<FollowedClient | undefined>,
): void {
  if (isFatalFailure(error) || !isRemoteFailure(error)) {
    // A refused key, a network set up wrongly or a local failure (the journal's disk): nothing else can succeed.
    sender.stopFor(error);
    return;
  }
  journal.setClaimProblem(claim.claim_key, problemOf(error));
  // Only an unavailable service counts towards stopping the run; a refused upload does not.
  if (isServiceDown(error)) sender.breaker.failed((error as Error).message);
  logger.warn({ code: codeOf(error), error: (error as Error).message }, 'claim failed; the next run retries it');
}

/** The service is not answering usefully: down, overloaded, or the outcome is unknown. */
function isServiceDown(error: unknown): boolean {
  if (error instanceof ClaimsNetworkError || error instanceof OutcomeUnknownError) return true;
  return error instanceof ClaimsHttpError && (error.status === 429 || error.status >= 500);
}

/** Errors of the client (it has already retried what it safely could), as opposed to our own bugs or disk. */
function isRemoteFailure(error: unknown): boolean {
  return codeOf(error)?.startsWith('CLAIMS_') === true;
}

function problemOf(error: unknown): RowProblem {
  const status = error instanceof ClaimsHttpError ? error.status : (error as { status?: number }).status;
  // Only remote failures get here (isRemoteFailure), and each carries a CLAIMS_ code.
  return { code: codeOf(error) ?? '', message: (error as Error).message, httpStatus: status };
}
