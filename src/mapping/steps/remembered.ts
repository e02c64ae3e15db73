import { memoised } from '../../memo/memoised.js';
import type { TransformResult } from '../transforms/index.js';

/**
 * A pure transform with its answers kept for the values a column repeats (a reason code, a
 * date): enum builds its lookup table on every call, dates go through several checks. The
 * answer for a text never changes, so a kept one is the same answer; the bound keeps a column
 * of distinct values (or junk) from growing memory, and those are simply computed each time.
 */
export function remembered<Value>(
  step: (text: string) => TransformResult<Value>,
  bound = 2048,
): (text: string) => TransformResult<Value> {
  return memoised(bound, step);
}
