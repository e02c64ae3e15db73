import { rm } from 'node:fs/promises';
import type Database from 'better-sqlite3';
import { plainDialect, type WrittenDialect } from '../../csv/layout.js';
import { expectFormat, expectStaged, snapshotOf } from '../../report/read-journal.js';
import { NotResultsError } from '../../report/read-results.js';
import { isSqlite } from '../../report/run-report.js';
import type { Shard } from '../ids.js';
import { readResultRecords, type ResultRecord } from '../journal/journal.js';
import { journalFormat } from '../journal/schema.js';
import { serviceMetaKey } from '../journal/service-binding.js';
import { parseService } from '../../api/service-identity.js';
import { checkShards, mergeByLine, MergeRefusedError, type ShardJob } from './merge.js';
import { fieldColumnsKey, resultsDialectKey, resultsFormatOf, writeResultRecords, type ResultsSummary } from './write-results.js';

/**
 * `merge-results` (issue 13, part 3): the journals of one import split with `--shard i/n`, checked
 * to be exactly the n parts of one job (merge.ts says why journals), and their rows written as one
 * results CSV in input order and in the shards' dialect, by the same code that writes an import's
 * results: the merge reads as the unsharded import would have written it (but for each shard's
 * own `attempts` and evidence `file_ids`).
 */

export interface MergeReport {
  summary: ResultsSummary;
  /** In shard order. */
  shards: readonly ShardJob[];
}

interface OpenShard {
  job: ShardJob;
  database: Database.Database;
  folder: string;
}

export async function mergeShardJournals(files: readonly string[], out: string): Promise<MergeReport> {
  const opened: OpenShard[] = [];
  const sources: { file: string; rows: IterableIterator<ResultRecord> }[] = [];
  try {
    // Each read from a private copy (report's snapshot): a run starting on a journal meanwhile is not blocked.
    for (const file of files) opened.push(await openShard(file));
    const shards = checkShards(opened.map((shard) => shard.job));
    const [first] = shards;
    if (first === undefined) throw new MergeRefusedError('expected at least one shard, got none');
    for (const { job, database } of opened) sources.push({ file: job.file, rows: readResultRecords(database) });
    const summary = await writeResultRecords(mergeByLine(sources), first.sourceColumns, out, resultsFormatOf(out, first.dialect, first.fieldColumns));
    return { summary, shards };
  } finally {
    // A refusal in mid-merge leaves statements open: a connection closes only once they end.
    for (const { rows } of sources) rows.return?.();
    for (const { database, folder } of opened) {
      database.close();
      await rm(folder, { recursive: true, force: true });
    }
  }
}

async function openShard(file: string): Promise<OpenShard> {
  if (!(await isSqlite(file))) {
    throw new MergeRefusedError(
      `${file}: expected a shard's journal (the --journal of its import), got a file that is not one; a results CSV does not record its input, mapping or shard, so a missing or foreign shard could not be told`,
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

/** The journal's fingerprint, as run-import.ts records it. */
interface Fingerprint {
  input: string;
  mapping: string;
  fileMode: string;
  shard: Shard | null;
  dryRun: boolean;
}

function shardJobOf(database: Database.Database, file: string): ShardJob {
  const tables = new Set((database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((row) => row.name));
  if (!tables.has('rows') || !tables.has('claims')) throw new MergeRefusedError(`${file}: expected an import's journal (tables meta, rows and claims), got another SQLite database`);
  expectFormat(database, 'format', journalFormat, 'an import journal');
  expectStaged(database, '1');
  const meta = (key: string) => (database.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  const fingerprint = JSON.parse(meta('fingerprint') ?? '{}') as Partial<Fingerprint>;
  if (typeof fingerprint.input !== 'string' || typeof fingerprint.mapping !== 'string') throw new MergeRefusedError(`${file}: expected a journal that records its input and mapping, got none recorded`);
  const recordedDialect = meta(resultsDialectKey);
  return {
    file,
    inputSha256: fingerprint.input,
    mappingSha256: fingerprint.mapping,
    fileMode: String(fingerprint.fileMode),
    dryRun: fingerprint.dryRun === true,
    shard: fingerprint.shard ?? undefined,
    sourceColumns: JSON.parse(meta('source_columns') ?? '[]') as string[],
    // A journal staged before the dialect was recorded (issue 13) wrote its results plain.
    dialect: recordedDialect === undefined ? plainDialect : (JSON.parse(recordedDialect) as WrittenDialect),
    service: parseService(meta(serviceMetaKey)),
    // A journal staged before they were recorded (issue 21): a results workbook without its error cells marked.
    fieldColumns: JSON.parse(meta(fieldColumnsKey) ?? '{}') as Record<string, string[]>,
  };
}
