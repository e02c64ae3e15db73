/**
 * What one answer says about the service, for the job's pace (docs/rate-limits.md, "Three
 * signals"; docs/decisions/0007-three-signals-for-refusals.md). A refusal is not one thing:
 * - `rate-limited` (429): the key's allowance is spent, for every request of the job.
 * - `case-unavailable` (503 from filing or run_workflow): in the service's words, "case
 *   temporarily unavailable for filing; retry later", a fact about that case, not about the
 *   service's load.
 * - `refused` (any other 503) and `failed` (no answer: a reset, a timeout, a refused connection;
 *   or a gateway's 502 or 504): a sign of overload only when many recent answers say so.
 * - `accepted`: anything else, errors of the request included; the service took it in.
 */
export type AnswerKind = 'accepted' | 'rate-limited' | 'case-unavailable' | 'refused' | 'failed';

/** `status` undefined: no answer came. `caseScoped`: a 503 of this request speaks of its case. */
export function answerKind(status: number | undefined, caseScoped: boolean): AnswerKind {
  if (status === undefined || status === 502 || status === 504) return 'failed';
  if (status === 429) return 'rate-limited';
  if (status === 503) return caseScoped ? 'case-unavailable' : 'refused';
  return 'accepted';
}

/** Whether an answer counts against the service in a window of recent answers (`case-unavailable` does not count at all). */
export function countsAsRefusal(kind: AnswerKind): boolean {
  return kind === 'refused' || kind === 'failed';
}

/**
 * The last `size` answers that speak of the service's state, as refused or not: the share that
 * tells a service that is down or overloaded from one that refuses now and then.
 */
export class RecentAnswers {
  private readonly refusedAt: boolean[];
  private next = 0;
  private filled = 0;
  private refused = 0;

  constructor(readonly size: number) {
    this.refusedAt = new Array<boolean>(size).fill(false);
  }

  record(refused: boolean): void {
    if (this.filled === this.size) {
      if (this.refusedAt[this.next] === true) this.refused--;
    } else {
      this.filled++;
    }
    this.refusedAt[this.next] = refused;
    if (refused) this.refused++;
    this.next = (this.next + 1) % this.size;
  }

  /** Answers recorded, up to `size`. */
  get count(): number {
    return this.filled;
  }

  /** How many of the recorded answers were refusals. */
  get refusedCount(): number {
    return this.refused;
  }

  /** The share of the recorded answers that were refusals; 0 when none is recorded. */
  get refusedShare(): number {
    return this.filled === 0 ? 0 : this.refused / this.filled;
  }

  clear(): void {
    this.refusedAt.fill(false);
    this.next = 0;
    this.filled = 0;
    this.refused = 0;
  }
}
