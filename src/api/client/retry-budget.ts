/**
 * Retries of refusals stay a share of first attempts (docs/rate-limits.md, "The retry budget"),
 * as Finagle's RetryBudget and gRPC's retry throttling keep them: each first attempt adds `share`
 * of a retry, a floor of `minPerSecond` keeps a trickle going when nothing else is sent, and at
 * most `max` are saved up. A retry takes one; when none is left it waits for the floor to bring
 * one. It never fails for want of one: a row of the night is worth the wait, and what stops a
 * job whose service stays down is the breaker, not the budget.
 */

export interface RetryBudgetOptions {
  /** Retries each first attempt adds; 0.2: at most one retry for five first attempts, over time. */
  share: number;
  /** Retries the budget gains each second whatever is sent. */
  minPerSecond: number;
  /** The most saved up (and the budget at the start). */
  max: number;
}

export const defaultRetryBudget: RetryBudgetOptions = { share: 0.2, minPerSecond: 10, max: 100 };

export class RetryBudget {
  private balance: number;
  private lastMs: number;
  private heldBack = 0;

  constructor(
    private readonly options: RetryBudgetOptions,
    nowMs: number,
  ) {
    this.balance = options.max;
    this.lastMs = nowMs;
  }

  firstAttempt(nowMs: number): void {
    this.refill(nowMs);
    this.balance = Math.min(this.options.max, this.balance + this.options.share);
  }

  /** Takes a retry from the budget; returns how long it must wait for it (0: at once). */
  reserve(nowMs: number): number {
    this.refill(nowMs);
    this.balance -= 1;
    if (this.balance >= 0) return 0;
    this.heldBack++;
    return Math.ceil((-this.balance / this.options.minPerSecond) * 1000);
  }

  /** Retries that had to wait for the budget. */
  get retriesHeldBack(): number {
    return this.heldBack;
  }

  private refill(nowMs: number): void {
    const elapsedMs = Math.max(0, nowMs - this.lastMs);
    this.lastMs = Math.max(this.lastMs, nowMs);
    this.balance = Math.min(this.options.max, this.balance + (elapsedMs / 1000) * this.options.minPerSecond);
  }
}
