import { createHash } from 'node:crypto';
import { xoroshiro128plus } from 'pure-rand';
import { dayMs } from '../../filing-rules/filing-window.js';

/**
 * `--outcomes` (a sandbox decision, docs/sandbox.md, "Outcomes"): what the card networks do with
 * a filed case, as a path of moves drawn when the case is filed. Pure: the same seed and case id
 * always give the same draws, whatever else the sandbox does, so a run can be replayed and the
 * order in which cases are filed or requests arrive changes nothing.
 */

export type OutcomeStatus =
  'chargeback_represented' | 'prearb_filed' | 'prearb_rebutted' | 'arbitration_filed' | 'won' | 'lost';
export type OutcomeClosedReason = 'accepted' | 'merchant_credited' | 'rejected' | 'expired';

export interface OutcomeMove {
  status: OutcomeStatus;
  /** When it happens, on the sandbox clock (ms since the epoch); later than the move before. */
  atMs: number;
  /** Set with `won` and `lost`: why the case ended. */
  closedReason?: OutcomeClosedReason;
  /** The case's new `resolution_due_date` (ms): the issuer's deadline to answer this move. */
  resolutionDueMs?: number;
  /** The move also sets `review_status: chargeback_needs_review` (and records its event). */
  needsReview?: boolean;
}

/** The shares of the paths, each among the cases that reached its branch. */
export const outcomeShares = {
  filed: { accepted: 0.3, merchantCredited: 0.1, rejected: 0.1, expired: 0.15, represented: 0.35 },
  /** One in three representments asks the issuer to review it. */
  representedNeedsReview: 1 / 3,
  represented: { prearb: 0.4, rejected: 0.3, expired: 0.3 },
  prearb: { accepted: 0.5, rejected: 0.3, rebutted: 0.2 },
  /** An arbitration is won half of the time. */
  arbitrationWon: 0.5,
} as const;

/** The issuer's time to answer a representment, a pre-arbitration or an arbitration. */
export const answerDays = 30;

/**
 * Uniform values in [0, 1) for one case: xoroshiro128+ (the faults' generator) started from 128
 * bits of SHA-256 over the seed and the case id, so that no two case ids share a stream (a 32-bit
 * seed would, about once in 100,000 cases). One 32-bit output per value, as the faults draw.
 */
export function pathDraws(seed: number, caseId: string): () => number {
  const digest = createHash('sha256')
    .update(`${String(seed)}\u0000${caseId}`)
    .digest();
  const generator = xoroshiro128plus.fromState([
    digest.readInt32BE(0),
    digest.readInt32BE(4),
    digest.readInt32BE(8),
    digest.readInt32BE(12),
  ]);
  return () => (generator.unsafeNext() >>> 0) / 2 ** 32;
}

/**
 * The path of a case filed at `filedAtMs` whose `resolution_due_date` is `resolutionDueMs`. The
 * draws depend on (seed, case id) only; the times are then counted from the filing. A wait of
 * "5–30 days" is uniform over [5, 30) days, to the millisecond.
 */
export function outcomePath(seed: number, caseId: string, filedAtMs: number, resolutionDueMs: number): OutcomeMove[] {
  const draw = pathDraws(seed, caseId);
  let atMs = filedAtMs;
  const after = (minDays: number, maxDays: number): number => {
    atMs += minDays * dayMs + Math.floor(draw() * (maxDays - minDays) * dayMs);
    return atMs;
  };
  const shares = outcomeShares.filed;
  const kind = draw();
  if (kind < shares.accepted) return [{ status: 'won', closedReason: 'accepted', atMs: after(5, 30) }];
  if (kind < shares.accepted + shares.merchantCredited)
    return [{ status: 'won', closedReason: 'merchant_credited', atMs: after(3, 20) }];
  if (kind < shares.accepted + shares.merchantCredited + shares.rejected)
    return [{ status: 'lost', closedReason: 'rejected', atMs: after(10, 40) }];
  if (kind < shares.accepted + shares.merchantCredited + shares.rejected + shares.expired) {
    // The merchant's time to respond runs out at the due date; one already past ends the case at once.
    return [{ status: 'won', closedReason: 'expired', atMs: Math.max(filedAtMs, resolutionDueMs) }];
  }
  return representedPath(draw, after);
}

/** The 35% that the merchant represents, and what follows. */
function representedPath(draw: () => number, after: (minDays: number, maxDays: number) => number): OutcomeMove[] {
  const representedAt = after(10, 30);
  const represented: OutcomeMove = {
    status: 'chargeback_represented',
    atMs: representedAt,
    resolutionDueMs: representedAt + answerDays * dayMs,
  };
  if (draw() < outcomeShares.representedNeedsReview) represented.needsReview = true;
  const next = draw();
  const shares = outcomeShares.represented;
  if (next >= shares.prearb + shares.rejected) {
    // Nobody answered the representment by its due date: the issuer loses.
    return [represented, { status: 'lost', closedReason: 'expired', atMs: representedAt + answerDays * dayMs }];
  }
  if (next >= shares.prearb) return [represented, { status: 'lost', closedReason: 'rejected', atMs: after(5, 25) }];
  const prearbAt = after(5, 25);
  const prearb: OutcomeMove = {
    status: 'prearb_filed',
    atMs: prearbAt,
    resolutionDueMs: prearbAt + answerDays * dayMs,
  };
  const answer = draw();
  if (answer < outcomeShares.prearb.accepted)
    return [represented, prearb, { status: 'won', closedReason: 'accepted', atMs: after(10, 30) }];
  if (answer < outcomeShares.prearb.accepted + outcomeShares.prearb.rejected)
    return [represented, prearb, { status: 'lost', closedReason: 'rejected', atMs: after(10, 30) }];
  const rebutted: OutcomeMove = { status: 'prearb_rebutted', atMs: after(5, 15) };
  const arbitrationAt = after(5, 10);
  const arbitration: OutcomeMove = {
    status: 'arbitration_filed',
    atMs: arbitrationAt,
    resolutionDueMs: arbitrationAt + answerDays * dayMs,
  };
  const won = draw() < outcomeShares.arbitrationWon;
  const decided: OutcomeMove = won
    ? { status: 'won', closedReason: 'accepted', atMs: after(20, 40) }
    : { status: 'lost', closedReason: 'rejected', atMs: after(20, 40) };
  return [represented, prearb, rebutted, arbitration, decided];
}
