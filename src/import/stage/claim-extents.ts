import { maskCardNumbers } from '../../card-numbers/mask.js';
import { compileMapping } from '../../mapping/compile/index.js';
import { withAbsentOptionalColumns } from '../../mapping/optional-columns.js';
import { readInput, type InputToStage } from './index.js';

/**
 * Where each claim's last row is, known before staging: what lets a claim be sent while later
 * rows are still staged, and never before its own last row is in (docs/import.md, "What happens,
 * in order"). A claim's rows may be anywhere in the file, so the file is read once first, as
 * staging reads it (the same records, the same indexes), for each record's claim key alone.
 *
 * The keys are not kept: each is hashed into a fixed table of buckets holding the last record
 * index of the keys that fall in it. Memory is the table's whatever the file's size; two claims
 * sharing a bucket each wait for the later of their last rows, never for less than their own.
 */
export class ClaimExtents {
  constructor(private readonly lastIndexes: Int32Array) {}

  /** The index of the claim's last record, or of a later one. */
  lastRecordOf(claimKey: string): number {
    return this.lastIndexes[bucketOf(claimKey, this.lastIndexes.length)] ?? Number.MAX_SAFE_INTEGER;
  }
}

/** 4 MiB: a night of a million claims shares few buckets. A power of two. */
const buckets = 1 << 20;

/**
 * The input's claims' last records, or undefined for one of our results files fed back: there a
 * row reported created decides which of two rows of a dispute is the first, whichever comes first
 * in the file, so no claim is known settled before the last row (src/import/journal/duplicates.ts).
 */
export async function readClaimExtents(input: InputToStage): Promise<ClaimExtents | undefined> {
  const { seen, batches } = readInput(input);
  const lastIndexes = new Int32Array(buckets).fill(-1);
  let keyOf: ((raw: readonly string[]) => string | undefined) | undefined;
  for await (const batch of batches) {
    if (seen.resultsInput) return undefined;
    keyOf ??= claimKeyReader(input, seen.header, seen.unmaskedColumns);
    for (const record of batch) {
      const key = keyOf(record.raw ?? []);
      if (key !== undefined) lastIndexes[bucketOf(key, buckets)] = record.index;
    }
  }
  return new ClaimExtents(lastIndexes);
}

/**
 * A record's claim key exactly as staging makes it (src/staging/prepare-row.ts): the compiled
 * mapping's key of the cells as staged, card numbers masked but in the `not_card_numbers`
 * columns. Only the key's cells are masked here; the others are not read.
 */
function claimKeyReader(
  input: InputToStage,
  header: readonly string[],
  unmaskedColumns: readonly number[],
): (raw: readonly string[]) => string | undefined {
  const compiled = compileMapping(input.mapping, header);
  const readable = withAbsentOptionalColumns(input.mapping, header);
  const keyIndexes = input.mapping.claim.key
    .map((column) => readable.indexOf(column))
    .filter((index) => index >= 0 && !unmaskedColumns.includes(index));
  return (raw) => {
    const cells = [...raw];
    for (const index of keyIndexes) {
      const cell = cells[index];
      if (cell !== undefined) cells[index] = maskCardNumbers(cell);
    }
    return compiled.claimKey(cells);
  };
}

/** FNV-1a over the key's UTF-16 code units, into `size` buckets (a power of two). */
function bucketOf(key: string, size: number): number {
  let hash = 0x811c9dc5;
  for (let place = 0; place < key.length; place++) {
    hash ^= key.charCodeAt(place);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) & (size - 1);
}
