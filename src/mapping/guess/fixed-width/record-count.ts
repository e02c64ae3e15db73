import type { Block } from './record-types.js';
import type { FileLine } from './read-lines.js';

/**
 * The trailer's record count (docs/mappings.md, "Fixed-width files and control records"): digits
 * in the trailer that equal, in every whole block the head holds, the block's records (header and
 * trailer included) or its detail records. A count field is zero-padded to the largest count the
 * layout allows, so the widest such digits win; fewer than `narrowestCount` digits could be any
 * number that happens to match.
 */
export interface RecordCountGuess {
  readonly first: number;
  readonly last: number;
  readonly counts: 'all_records' | 'detail_records';
  /** Whole blocks whose trailer says what they hold. */
  readonly agreeing: number;
  /** The others: what their trailer says and what they hold. */
  readonly disagreeing: readonly { readonly block: number; readonly says: number; readonly holds: number }[];
}

const narrowestCount = 3;
/** A count field is never wider: 18 digits keep every count exact as a JavaScript number. */
const widestCount = 18;

export function findRecordCount(
  blocks: readonly Block[],
  isTrailer: (line: FileLine) => boolean,
): RecordCountGuess | undefined {
  const whole = blocks
    .filter((block) => block.complete)
    .map((block) => ({ block, trailer: block.lines.at(-1) }))
    .filter(
      (entry): entry is { block: Block; trailer: FileLine } => entry.trailer !== undefined && isTrailer(entry.trailer),
    );
  if (whole.length === 0) return undefined;
  const holds = (block: Block, counts: RecordCountGuess['counts']) =>
    counts === 'all_records' ? block.lines.length : block.details;
  const candidates: RecordCountGuess[] = [];
  const first = whole[0];
  if (first === undefined) return undefined;
  for (const [start, end] of digitSlices(first.trailer.text))
    for (const counts of ['all_records', 'detail_records'] as const) {
      const says = (text: string) => Number(text.slice(start, end + 1));
      const read = whole.map(({ block, trailer }) => ({
        block: block.number,
        says: says(trailer.text),
        holds: holds(block, counts),
        digits: /^\d+$/.test(trailer.text.slice(start, end + 1)),
      }));
      if (read.some((entry) => !entry.digits)) continue;
      const disagreeing = read
        .filter((entry) => entry.says !== entry.holds)
        .map(({ block, says: said, holds: held }) => ({ block, says: said, holds: held }));
      const agreeing = read.length - disagreeing.length;
      if (agreeing === 0) continue;
      candidates.push({ first: start, last: end, counts, agreeing, disagreeing });
    }
  // Most blocks agreeing, then the widest, then the first in the record.
  return candidates.sort(
    (left, right) =>
      right.agreeing - left.agreeing || right.last - right.first - (left.last - left.first) || left.first - right.first,
  )[0];
}

/** Every stretch of digits of `narrowestCount` to `widestCount` digits inside the record's runs of digits. */
function* digitSlices(text: string): Generator<readonly [number, number]> {
  for (const run of text.matchAll(/\d+/g)) {
    const runStart = run.index;
    const runEnd = runStart + run[0].length - 1;
    for (let start = runStart; start <= runEnd; start++)
      for (let end = start + narrowestCount - 1; end <= Math.min(runEnd, start + widestCount - 1); end++)
        yield [start, end];
  }
}
