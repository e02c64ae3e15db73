import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import pLimit, { type LimitFunction } from 'p-limit';
import { AuthenticationError, ClaimsHttpError, ClaimsNetworkError, OutcomeUnknownError } from '../api/errors.js';
import { ConnectionSetupError } from '../api/network/setup-error.js';
import { followThrottling, type ThrottlingSummary } from '../rate/follow-throttling.js';
import { CircuitBreaker } from './breaker.js';
import { PrepareAhead, type ClaimAhead } from './claim/prepare-ahead.js';
import { processClaim, type ClaimWork } from './claim/process-claim.js';
import type { RowProblem } from './journal/journal.js';
import { codeOf } from '../errors/coded-error.js';

export interface ProcessOptions extends ClaimWork {
  /** The most claims in flight; fewer while the service throttles. */
  concurrency: number;
  /** Claims failed on the service's side in the last minute, and half of those that ended, that stop the run (exit 3). */
  breakerThreshold: number;
  /** Checked between claims: true stops pulling more (Ctrl-C, SIGTERM). */
  stopRequested?: () => boolean;
  /** After each claim this run worked on, whatever became of it (the progress line counts its rows). */
  onClaimDone?: (claimKey: string) => void;
  /** After each claim: the breaker, to show how near the run is to stopping. */
  onBreaker?: (breaker: CircuitBreaker) => void;
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
 * The claims in flight follow the service: every 429 or 503 halves them, a run of unthrottled
 * answers adds one back, up to `concurrency` (rate/adaptive-concurrency.ts).
 */
export async function processClaims(options: ProcessOptions): Promise<ProcessSummary> {
  const limit = pLimit(options.concurrency);
  // p-limit applies a lower concurrency to the claims it starts next; those in flight finish.
  const apply = (next: number) => {
    limit.concurrency = next;
  };
  const follower =
    options.client === undefined
      ? undefined
      : followThrottling({ client: options.client, concurrency: options.concurrency, apply, logger: options.logger });
  let abortedBecause: string | undefined;
  let throttling: ThrottlingSummary | undefined;
  try {
    abortedBecause = await processAll(options, limit);
  } finally {
    throttling = follower?.stop();
    if (throttling !== undefined) options.logger.info({ throttling }, 'sending paced');
  }
  return { abortedBecause, throttling };
}

async function processAll(options: ProcessOptions, limit: LimitFunction): Promise<string | undefined> {
  const { journal, logger } = options;
  const breaker = new CircuitBreaker(options.breakerThreshold);
  const window = options.concurrency * 2;
  const running = new Set<Promise<void>>();
  let fatal: unknown;

  const stopping = () => breaker.open || options.stopRequested?.() === true;
  // The claims waiting in the window are prepared while the claims in flight wait on the network.
  const prepareAhead = new PrepareAhead(journal, options.stagedHere === true);
  // Never rejects: whatever happens to one claim is recorded, so every task settles before the end.
  const run = async (claim: Parameters<typeof processClaim>[0], ahead: ClaimAhead) => {
    // Queued in p-limit before a stop: not started at all, left for the next run.
    if (stopping()) {
      ahead.drop();
      return;
    }
    try {
      await processClaim(claim, options, ahead);
      breaker.succeeded();
    } catch (error) {
      try {
        recordFailure(claim, error);
      } catch (bookkeeping) {
        // The journal itself failed (disk full, say): nothing more can be recorded.
        fatal ??= bookkeeping;
        breaker.trip((bookkeeping as Error).message);
      }
    } finally {
      // Whatever the claim's step was, the pump has nothing more to do for it.
      ahead.drop();
      options.onClaimDone?.(claim.claim_key);
      options.onBreaker?.(breaker);
    }
  };
  const recordFailure = (claim: Parameters<typeof processClaim>[0], error: unknown) => {
    if (error instanceof AuthenticationError || error instanceof ConnectionSetupError || !isRemoteFailure(error)) {
      // A refused key, a network set up wrongly or a local failure (the journal's disk): nothing else can succeed.
      fatal ??= error;
      breaker.trip((error as Error).message);
      return;
    }
    journal.setClaimProblem(claim.claim_key, problemOf(error));
    // Only an unavailable service counts towards stopping the run; a refused upload does not.
    if (isServiceDown(error)) breaker.failed((error as Error).message);
    logger.warn(
      { claimId: claim.claim_id, code: codeOf(error), error: (error as Error).message },
      'claim failed; the next run retries it',
    );
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
  let after = -1;
  pulling: for (;;) {
    const page = journal.pendingClaims(after, pageSize);
    if (page.length === 0) break;
    // Dry-run claims finish without real I/O: without a turn of the event loop here, Ctrl-C and
    // SIGTERM would wait until every claim is done.
    await yieldToEventLoop();
    for (const claim of page) {
      after = claim.first_idx;
      while (running.size >= window) await someTaskEnded();
      if (stopping()) break pulling;
      const ahead = prepareAhead.schedule(claim);
      const task: Promise<void> = limit(async () => run(claim, ahead)).finally(() => {
        taskEnded(task);
      });
      running.add(task);
    }
  }
  await Promise.allSettled(running);
  if (fatal !== undefined) throw fatal as Error;
  const unfinished = journal.pendingCount() > 0;
  return breaker.why ?? (options.stopRequested?.() === true && unfinished ? 'stopped by a signal' : undefined);
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
