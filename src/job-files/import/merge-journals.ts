import { rm } from 'node:fs/promises';
import type Database from 'better-sqlite3';
import { plainDialect } from '../../csv/layout.js';
import { isSqlite } from '../../files/file-kind.js';
import { readResultRecords } from './result-records.js';
import type { ResultRecord } from './records.js';
import { snapshotOf } from '../../journal/snapshot.js';
import { expectImportJournal, importMetaOf } from './meta.js';
import { checkShards, mergeByLine, MergeRefusedError, type ShardJob } from './merge.js';
import { NotResultsError } from '../../files/not-results-error.js';
import { resultsFormatOf, writeResultRecords, type ResultsSummary } from './write-results.js';
import { journalKindOf, tablesOf } from '../../journal/kind.js';
import { refuseThinned, type ThinnedUse } from './thinned.js';

/**
 * `merge-results`: the journals of one import split with `--shard i/n`, checked to be exactly the n
 * parts of one job (merge.ts says why journals), and their rows written as one results CSV in input
 * order and in the shards' dialect, by the same code that writes an import's results: the merge
 * reads as the unsharded import would have written it (but for each shard's own `attempts` and
 * evidence `file_ids`).
 */

export interface MergeReport {
  summary: ResultsSummary;
  /** In shard order. */
  shards: readonly ShardJob[];
}

/** One shard's journal, open on a private copy. */
export interface OpenShard {
  readonly job: ShardJob;
  readonly database: Database.Database;
  readonly folder: string;
}

/** The journals of one job, checked to be exactly its n parts, in shard order; close them when done. */
export interface OpenShards {
  readonly shards: readonly OpenShard[];
  close(): Promise<void>;
}

export async function mergeShardJournals(
  files: readonly string[],
  out: string,
  use: ThinnedUse = mergeOfThinned,
): Promise<MergeReport> {
  const opened = await openShardJournals(files, use);
  const sources: { file: string; rows: IterableIterator<ResultRecord> }[] = [];
  try {
    const [first] = opened.shards;
    if (first === undefined) throw new MergeRefusedError('expected at least one shard, got none');
    for (const { job, database } of opened.shards) sources.push({ file: job.file, rows: readResultRecords(database) });
    const summary = await writeResultRecords(
      mergeByLine(sources),
      first.job.sourceColumns,
      out,
      resultsFormatOf(out, first.job.dialect, first.job.fieldColumns),
      { cellsMasked: opened.shards.every((shard) => shard.job.cellsMasked === true) },
    );
    return { summary, shards: opened.shards.map((shard) => shard.job) };
  } finally {
    // A refusal in mid-merge leaves statements open: a connection closes only once they end.
    for (const { rows } of sources) rows.return?.();
    await opened.close();
  }
}

/** Why merge-results refuses a thinned shard, and what to do instead. */
const mergeOfThinned: ThinnedUse = {
  needs: "the merged results repeat every row's cells",
  instead:
    "run each shard's import again with its input, --journal and --results (it reads the cells again from the " +
    'input), or `bulk-disputes report` the journals for their outcomes',
};

/**
 * Each journal read from a private copy (src/journal/snapshot.ts: a run starting on one meanwhile is
 * not blocked), checked with `checkShards`; also what `review` reads a job from. A journal prune
 * thinned is refused as `use` says (thinned.ts): what reads its rows' cells would find none.
 */
export async function openShardJournals(files: readonly string[], use: ThinnedUse): Promise<OpenShards> {
  const opened: OpenShard[] = [];
  const close = async () => {
    for (const { database, folder } of opened) {
      database.close();
      await rm(folder, { recursive: true, force: true });
    }
  };
  try {
    for (const file of files) {
      const shard = await openShard(file);
      opened.push(shard);
      refuseThinned(file, importMetaOf(shard.database, file).get('thinned'), use);
    }
    const order = checkShards(opened.map((shard) => shard.job));
    return { shards: order.map((job) => opened.find((shard) => shard.job === job) as OpenShard), close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function openShard(file: string): Promise<OpenShard> {
  if (!(await isSqlite(file))) {
    throw new MergeRefusedError(
      `${file}: expected a shard's journal (the --journal of its import), got a file that is not one; a ` +
        `results CSV does not record its input, mapping or shard, so a missing or foreign shard could not be ` +
        `told`,
    );
  }
  const { database, folder } = await snapshotOf(file);
  try {
    return { job: shardJobOf(database, file), database, folder };
  } catch (error) {
    database.close();
    await rm(folder, { recursive: true, force: true });
    if (error instanceof NotResultsError) throw new MergeRefusedError(`${file}: ${error.message}`, { cause: error });
    throw error;
  }
}

function shardJobOf(database: Database.Database, file: string): ShardJob {
  const tables = tablesOf(database);
  if (journalKindOf(tables) !== 'import')
    throw new MergeRefusedError(
      `${file}: expected an import's journal (tables meta, rows and claims), got another SQLite database`,
    );
  const meta = importMetaOf(database, file);
  expectImportJournal(meta);
  const fingerprint = meta.get('fingerprint') ?? {};
  if (fingerprint.input === undefined || fingerprint.mapping === undefined)
    throw new MergeRefusedError(`${file}: expected a journal that records its input and mapping, got none recorded`);
  return {
    file,
    inputSha256: fingerprint.input,
    mappingSha256: fingerprint.mapping,
    fileMode: String(fingerprint.fileMode),
    dryRun: fingerprint.dryRun === true,
    shard: fingerprint.shard ?? undefined,
    sourceColumns: meta.get('source_columns') ?? [],
    // A journal staged before the dialect was recorded wrote its results plain.
    dialect: meta.get('results_dialect') ?? plainDialect,
    service: meta.get('service'),
    // A journal staged before they were recorded: a results workbook without its error cells marked.
    fieldColumns: meta.get('field_columns') ?? {},
    cellsMasked: meta.has('card_numbers_masked'),
  };
}
