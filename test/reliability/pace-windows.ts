/**
 * The pace a service saw, read from the times it created each claim: claims created in a 1 s
 * window ending at a claim. A pace counts as reached only when it holds for several windows in a
 * row, so a single second's burst (a rate limit's bucket filled at a raise) is not taken for it.
 */

export const windowMs = 1000;

/** How many of the sorted `times` fall in (afterMs, untilMs]. */
export function createdIn(times: readonly number[], afterMs: number, untilMs: number): number {
  return countUpTo(times, untilMs) - countUpTo(times, afterMs);
}

/** How many of the sorted `times` are at most `limitMs` (a binary search). */
function countUpTo(times: readonly number[], limitMs: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((times[middle] ?? Number.POSITIVE_INFINITY) <= limitMs) low = middle + 1;
    else high = middle;
  }
  return low;
}

export interface PaceHeld {
  /** The end of the first of `windows` whole 1 s windows in a row, each with at least `target` claims, from `fromMs` on; undefined if none. */
  readonly reachedAtMs: number | undefined;
  /** The most claims created in any 1 s window ending at or after `fromMs`. */
  readonly bestWindow: number;
}

/**
 * The first claim's time `t >= fromMs` such that (t - 1 s, t], (t, t + 1 s], ... (`windows` of them)
 * each hold at least `target` claims. Every window must end by the last claim: a window the run did
 * not live to fill says nothing, and must not pass for a pace held.
 */
export function firstPaceHeld(times: readonly number[], fromMs: number, target: number, windows: number): PaceHeld {
  const lastMs = times.at(-1) ?? fromMs;
  let bestWindow = 0;
  let reachedAtMs: number | undefined;
  for (const timeMs of times) {
    if (timeMs < fromMs) continue;
    bestWindow = Math.max(bestWindow, createdIn(times, timeMs - windowMs, timeMs));
    if (reachedAtMs !== undefined) continue;
    let held = true;
    for (let window = 0; window < windows && held; window++) {
      const endMs = timeMs + window * windowMs;
      held = endMs <= lastMs && createdIn(times, endMs - windowMs, endMs) >= target;
    }
    if (held) reachedAtMs = timeMs;
  }
  return { reachedAtMs, bestWindow };
}
