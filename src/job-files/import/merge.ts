import { describeService, sameService, type ServiceIdentity } from '../../api/service-identity.js';
import { describeDialect, sameDialect, type WrittenDialect } from '../../csv/layout.js';
import type { Shard } from '../claims/ids.js';
import { RefusalError } from '../../errors/coded-error.js';
import { parseObjectFingerprint } from './input-fingerprint.js';

/**
 * The decisions of `merge-results`, with no files: whether n shard journals are one job split n
 * ways, and their rows merged in input order.
 *
 * Why journals and not the shards' results CSVs: a results CSV records neither its input, nor its
 * mapping, nor its shard (its columns are a contract staff and scripts rely on), and lines alone
 * cannot reveal a missing shard: a shard's rows are the claims whose key hashes to it, spread
 * over the whole file, so the rows of the other shards leave gaps anyway. The journal records
 * what its import was made with (the fingerprint: the input's and the mapping's sha256, the file
 * mode, the dry-run flag, the shard i/n) and the results' dialect, so each check is exact.
 */

/** What one shard's journal says of its job. */
export interface ShardJob {
  /** Where it was read from, for messages. */
  readonly file: string;
  /** sha256 of the input file and of the mapping file's text. */
  readonly inputSha256: string;
  readonly mappingSha256: string;
  readonly fileMode: string;
  readonly dryRun: boolean;
  /** Undefined for an import run without `--shard` (the whole input: shard 1 of 1). */
  readonly shard: Shard | undefined;
  readonly sourceColumns: readonly string[];
  readonly dialect: WrittenDialect;
  /** The service its import ran against; undefined in a dry run or a journal made before it was recorded. */
  readonly service?: ServiceIdentity | undefined;
  /** The mapping's source columns by field, for a merged results workbook. */
  readonly fieldColumns?: Readonly<Record<string, readonly string[]>> | undefined;
  /** Staged with its cells masked (docs/import.md, "Card numbers"); false for a journal of an earlier version. */
  readonly cellsMasked?: boolean | undefined;
}

/** The shards cannot be merged into one results CSV; the message says which file and why. */
export class MergeRefusedError extends RefusalError {
  readonly code = 'MERGE_REFUSED';
  override readonly name = 'MergeRefusedError';
}

const shardOf = (job: ShardJob): Shard => job.shard ?? { index: 1, count: 1 };
const shardText = (job: ShardJob) => `shard ${shardOf(job).index}/${shardOf(job).count}`;
const short = (sha256: string) => `sha256 ${sha256.slice(0, 12)}…`;

/** A file's input by its sha256, shortened; an object's by what identifies it (input-fingerprint.ts): its address and ETag. */
function inputShown(fingerprint: string): string {
  const object = parseObjectFingerprint(fingerprint);
  if (object === undefined) return short(fingerprint);
  return `${object.address} ETag ${object.etag}${object.version === undefined ? '' : ` version ${object.version}`}`;
}

/**
 * Refuses shards that are not exactly the n parts of one job: another input or mapping, other
 * flags, another split, the same shard twice, or a shard missing. Returns them in shard order.
 */
export function checkShards(jobs: readonly ShardJob[]): ShardJob[] {
  const [first, ...others] = jobs;
  if (first === undefined) throw new MergeRefusedError('expected at least one shard, got none');
  for (const job of others) {
    const against = `than ${first.file}`;
    if (job.inputSha256 !== first.inputSha256)
      throw new MergeRefusedError(
        `${job.file}: expected the same input as the other shards, got another input (${inputShown(job.inputSha256)}) ${against} (${inputShown(first.inputSha256)})`,
      );
    if (job.mappingSha256 !== first.mappingSha256)
      throw new MergeRefusedError(
        `${job.file}: expected the same mapping as the other shards, got another mapping ` +
          `(${short(job.mappingSha256)}) ${against} (${short(first.mappingSha256)})`,
      );
    if (job.fileMode !== first.fileMode || job.dryRun !== first.dryRun) {
      throw new MergeRefusedError(
        `${job.file}: expected the same flags as the other shards, got file mode ` +
          `${job.fileMode}${job.dryRun ? ', dry run' : ''} against ` +
          `${first.fileMode}${first.dryRun ? ', dry run' : ''} in ${first.file}`,
      );
    }
    // The shards of one job send to one service: a rehearsal's shard beside a real one's would merge into a lie.
    const service = jobs.find((other) => other.service !== undefined);
    if (job.service !== undefined && service?.service !== undefined && !sameService(job.service, service.service)) {
      throw new MergeRefusedError(
        `${job.file}: expected shards of one service, got one made against ${describeService(job.service)} ` +
          `and one against ${describeService(service.service)} (${service.file})`,
      );
    }
    if (shardOf(job).count !== shardOf(first).count)
      throw new MergeRefusedError(
        `${job.file}: expected shards of one split, got ${shardText(job)} and ${shardText(first)} in ${first.file}`,
      );
    // Same input and mapping make these equal; a journal edited by hand might not.
    if (!sameDialect(job.dialect, first.dialect))
      throw new MergeRefusedError(
        `${job.file}: expected results in one dialect, got ${describeDialect(job.dialect)} against ${describeDialect(first.dialect)} in ${first.file}`,
      );
    if (JSON.stringify(job.sourceColumns) !== JSON.stringify(first.sourceColumns))
      throw new MergeRefusedError(`${job.file}: expected the source columns of ${first.file}, got others`);
  }
  const byIndex = new Map<number, ShardJob>();
  for (const job of jobs) {
    const earlier = byIndex.get(shardOf(job).index);
    if (earlier !== undefined)
      throw new MergeRefusedError(
        `${job.file}: expected each shard once, got ${shardText(job)} again (also ${earlier.file}): their lines overlap`,
      );
    byIndex.set(shardOf(job).index, job);
  }
  const { count } = shardOf(first);
  const missing = Array.from({ length: count }, (_, position) => position + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0) {
    const given = [...byIndex.values()].map((job) => `${shardText(job)} ${job.file}`).join(', ');
    throw new MergeRefusedError(
      `expected all ${count} shards, got shard ${missing.map((index) => `${index}/${count}`).join(', ')} missing (given: ${given})`,
    );
  }
  return [...byIndex.entries()].sort(([left], [right]) => left - right).map(([, job]) => job);
}

/** A record with the input line it is for. */
export interface Lined {
  readonly line: number;
}

/**
 * The rows of every shard in input order, by line: each shard's rows come in input order, so the
 * next row is always the lowest line at the head of a shard. Two rows of one line (two shards
 * reporting one input row) are refused, naming both files.
 */
export function* mergeByLine<T extends Lined>(
  sources: readonly { readonly file: string; readonly rows: Iterator<T> }[],
): Generator<T> {
  const heads = sources.map((source) => ({ source, next: source.rows.next() }));
  for (;;) {
    let lowest: (typeof heads)[number] | undefined;
    for (const head of heads) {
      if (head.next.done === true) continue;
      if (lowest !== undefined && lowest.next.done !== true && head.next.value.line === lowest.next.value.line) {
        throw new MergeRefusedError(
          `${head.source.file}: expected lines no other shard has, got line ${head.next.value.line}, also in ${lowest.source.file}: their lines overlap`,
        );
      }
      if (lowest === undefined || (lowest.next.done !== true && head.next.value.line < lowest.next.value.line))
        lowest = head;
    }
    if (lowest === undefined || lowest.next.done === true) return;
    const row = lowest.next.value;
    lowest.next = lowest.source.rows.next();
    if (lowest.next.done !== true && lowest.next.value.line <= row.line) {
      throw new MergeRefusedError(
        `${lowest.source.file}: expected rows in input order, got line ${lowest.next.value.line} after line ${row.line}`,
      );
    }
    yield row;
  }
}
