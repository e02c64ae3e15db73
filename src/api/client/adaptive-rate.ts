/**
 * The service's rate, followed as a rate (docs/rate-limits.md, "A rate limit followed as a
 * rate"): pure, the caller says what happened and when. As the AWS SDKs' adaptive retry mode
 * does (a client-side rate that a throttle cuts to `beta` of what was measured and that grows
 * back along a cubic curve, CUBIC's, RFC 9438):
 *
 * - Off until the first 429: a job that is never rate limited is never paced by it.
 * - A 429 sets the rate from what the service let through: the answers it admitted (anything but a
 *   429 or no answer) in the last second are its rate while it refuses some. The rate goes to
 *   `beta` of that (or of the rate in force, when lower), and that figure is the ceiling the curve
 *   comes back to. When it admitted none (another job spent the allowance), the requests sent in
 *   the last second stand for it: the pace sent, as the AWS SDKs measure it, cut once per round.
 * - One cut per round: a 429 to a request sent before the last cut answers a pace already cut,
 *   as TCP cuts once per window (RFC 6582); it is counted, it cuts nothing.
 * - Growth: W(t) = Wmax (1 + c (t - K)^3), K = cbrt((1 - beta) / c). It comes back to Wmax within K
 *   seconds, flattening as it nears it, then probes above it faster and faster, so a limit raised
 *   while the job runs is found within seconds. `c` is relative to Wmax (CUBIC's is in packets):
 *   the same shape at 5 a second as at 500.
 */

export interface AdaptiveRateOptions {
  /** The share of the measured rate a 429 cuts to; default 0.7 (the AWS SDKs', CUBIC's). */
  beta?: number;
  /** The cubic's scale, relative to Wmax, per second cubed; default 1/54 (back to Wmax in 2.6 s, 1.5 Wmax 3 s later). */
  probe?: number;
  /** The slowest pace, in requests a second; default 0.5 (the AWS SDKs' floor). */
  minPerSecond?: number;
}

export interface AdaptiveRateStats {
  /** 429s that cut the rate (one per round). */
  throttles: number;
  /** The service's rate as last measured at a 429 (Wmax); undefined when never rate limited. */
  estimate: number | undefined;
  /** The lowest rate set. */
  lowest: number | undefined;
  /** How long requests waited for the rate's turn, in 100 ms slots: the time the service's rate set the pace. */
  pacedMs: number;
}

/** The admitted answers are counted in slots of this length, over the last `slots` of them. */
const slotMs = 100;
const slots = 10;

export class AdaptiveRate {
  private readonly beta: number;
  private readonly probe: number;
  private readonly minPerSecond: number;
  private readonly k: number;
  private readonly admittedIn = new Array<number>(slots).fill(0);
  private readonly sentIn = new Array<number>(slots).fill(0);
  private slot = 0;
  private slotStartMs: number | undefined;
  private wMax: number | undefined;
  private cutAtMs = Number.NEGATIVE_INFINITY;
  private throttles = 0;
  private lowest: number | undefined;
  private pacedMs = 0;
  private lastPacedSlot = Number.NEGATIVE_INFINITY;

  constructor(options: AdaptiveRateOptions = {}) {
    this.beta = between('beta', options.beta ?? 0.7, 0, 1);
    this.probe = between('probe', options.probe ?? 1 / 54, 0, Number.POSITIVE_INFINITY);
    this.minPerSecond = between('minPerSecond', options.minPerSecond ?? 0.5, 0, Number.POSITIVE_INFINITY);
    this.k = Math.cbrt((1 - this.beta) / this.probe);
  }

  /** Whether a 429 has come: from then on the job is paced. */
  get following(): boolean {
    return this.wMax !== undefined;
  }

  /** An answer the service's rate limit let through (any answer but a 429). */
  admitted(nowMs: number): void {
    this.advance(nowMs);
    this.admittedIn[this.slot] = (this.admittedIn[this.slot] ?? 0) + 1;
  }

  /** A request goes (its turn taken). */
  sent(nowMs: number): void {
    this.advance(nowMs);
    this.sentIn[this.slot] = (this.sentIn[this.slot] ?? 0) + 1;
  }

  /** A 429 to a request sent at `sentAtMs`. Returns true when the rate was cut. */
  throttled(sentAtMs: number, nowMs: number): boolean {
    this.advance(nowMs);
    if (sentAtMs < this.cutAtMs) return false;
    const admitted = sum(this.admittedIn);
    // The slots span the last second: nine whole ones and the one under way.
    const spanMs = (slots - 1) * slotMs + Math.max(1, nowMs - (this.slotStartMs ?? nowMs));
    const measured = ((admitted > 0 ? admitted : sum(this.sentIn)) * 1000) / spanMs;
    const inForce = this.perSecond(nowMs) ?? Number.POSITIVE_INFINITY;
    this.wMax = Math.max(this.minPerSecond, Math.min(measured, inForce));
    this.cutAtMs = nowMs;
    this.throttles++;
    const rate = this.perSecond(nowMs) ?? this.wMax;
    this.lowest = Math.min(this.lowest ?? rate, rate);
    return true;
  }

  /** Requests a second allowed now; undefined before the first 429. */
  perSecond(nowMs: number): number | undefined {
    if (this.wMax === undefined) return undefined;
    const t = Math.max(0, nowMs - this.cutAtMs) / 1000 - this.k;
    return Math.max(this.minPerSecond, this.wMax * (1 + this.probe * t * t * t));
  }

  /** A request waited for the rate's turn now: the 100 ms it falls in counts as paced by the service's rate. */
  waited(nowMs: number): void {
    const slotNow = Math.floor(nowMs / slotMs);
    if (slotNow === this.lastPacedSlot) return;
    this.lastPacedSlot = slotNow;
    this.pacedMs += slotMs;
  }

  stats(): AdaptiveRateStats {
    return { throttles: this.throttles, estimate: this.wMax, lowest: this.lowest, pacedMs: this.pacedMs };
  }

  /** Moves the slots on to `nowMs`, emptying those it passes. */
  private advance(nowMs: number): void {
    this.slotStartMs ??= nowMs;
    const passed = Math.floor((nowMs - this.slotStartMs) / slotMs);
    if (passed <= 0) return;
    for (let step = 0; step < Math.min(passed, slots); step++) {
      this.slot = (this.slot + 1) % slots;
      this.admittedIn[this.slot] = 0;
      this.sentIn[this.slot] = 0;
    }
    this.slotStartMs += passed * slotMs;
  }
}

function sum(counts: readonly number[]): number {
  return counts.reduce((total, count) => total + count, 0);
}

function between(name: string, value: number, low: number, high: number): number {
  if (!(value > low && value < high))
    throw new RangeError(
      `adaptive rate ${name}: expected a number above ${low} and below ${high}, got ${String(value)}`,
    );
  return value;
}
