/**
 * A rate over a moving window: how fast the count grew over the last `windowMs`, so the ETA follows
 * the pace of now (a service that slowed down, a pause for a 429) rather than the average since the
 * start. Pure: the caller passes the time, so a test moves the clock.
 *
 * Samples are kept at most every `sampleEveryMs`: a 30 s window holds at most ~120 of them,
 * however many claims a second the job does.
 */
export class RateWindow {
  private readonly samples: { atMs: number; count: number }[] = [];
  private latest: { atMs: number; count: number } | undefined;

  constructor(
    private readonly windowMs = 30_000,
    private readonly sampleEveryMs = 250,
  ) {}

  /** The count (cumulative, never going down) at `atMs`. */
  add(atMs: number, count: number): void {
    this.latest = { atMs, count };
    const last = this.samples.at(-1);
    if (last === undefined || atMs - last.atMs >= this.sampleEveryMs) this.samples.push({ atMs, count });
    // Keep one sample at or before the window's start, so the window is always covered whole.
    while (this.samples.length > 2 && (this.samples[1]?.atMs ?? atMs) <= atMs - this.windowMs) this.samples.shift();
  }

  /**
   * Per second over the window ending at `nowMs` (time without progress counts: a stalled job's
   * rate falls); undefined until the window spans `minimumSpanMs`, when a rate would be noise.
   */
  perSecond(nowMs: number, minimumSpanMs = 1000): number | undefined {
    const oldest = this.samples[0];
    if (oldest === undefined || this.latest === undefined) return undefined;
    const startMs = Math.max(oldest.atMs, nowMs - this.windowMs);
    const spanMs = nowMs - startMs;
    if (spanMs < minimumSpanMs) return undefined;
    return ((this.latest.count - this.countAt(startMs)) * 1000) / spanMs;
  }

  /** The count at `atMs`, read between the two samples around it (the count grows between samples). */
  private countAt(atMs: number): number {
    const points = this.latest === undefined ? this.samples : [...this.samples, this.latest];
    let before = points[0];
    for (const point of points) {
      if (point.atMs > atMs) {
        if (before === undefined || point.atMs <= before.atMs) return point.count;
        const share = (atMs - before.atMs) / (point.atMs - before.atMs);
        return before.count + share * (point.count - before.count);
      }
      before = point;
    }
    return this.latest?.count ?? 0;
  }
}

/** How long the rest takes at `perSecond`; undefined when nothing is moving. */
export function etaMs(remaining: number, perSecond: number | undefined): number | undefined {
  if (remaining <= 0) return 0;
  if (perSecond === undefined || !(perSecond > 0)) return undefined;
  return (remaining / perSecond) * 1000;
}
