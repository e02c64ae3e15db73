import Tinypool from 'tinypool';
import type { CsvRowError } from '../../csv/errors.js';
import type { CsvRow } from '../../csv/records.js';
import type { Mapping } from '../../mapping/schema.js';
import { inShard, type Shard } from '../ids.js';
import { prepareRow, WireCheck, type HeaderSeen, type PreparedRow } from './prepare.js';

/**
 * A staging worker thread (issue 12): maps and checks batches of records the main thread has read.
 * A row's mapping and wire check depend on no other row, so batches go to as many threads as
 * there are cores, while the main thread reads the input and writes the journal.
 */

export interface StageWorkerData {
  mapping: Mapping;
  shard: Shard | undefined;
}

/** A record as it crosses to a worker: its cells as read, without the header-keyed copy. */
export interface SentRecord {
  line: number;
  index: number;
  raw: readonly string[] | undefined;
  error?: CsvRowError | undefined;
}

export interface PrepareTask {
  seen: HeaderSeen;
  records: readonly SentRecord[];
}

const { mapping, shard } = Tinypool.workerData as StageWorkerData;
// Per thread: rows of a claim that land in this thread's batches share their claim-level check.
const wireCheck = new WireCheck();

/** The batch's rows of this shard, prepared for the journal, in the batch's order. */
export default function prepareBatch(task: PrepareTask): PreparedRow[] {
  const prepared: PreparedRow[] = [];
  for (const sent of task.records) {
    const row = prepareRow(receivedRecord(sent, task.seen.header), mapping, task.seen, wireCheck);
    if (inShard(row.claimKey, shard)) prepared.push(row);
  }
  return prepared;
}

function receivedRecord(sent: SentRecord, header: readonly string[]): CsvRow {
  if (sent.error !== undefined) return { line: sent.line, index: sent.index, error: sent.error, raw: sent.raw };
  const raw = sent.raw ?? [];
  const cells: Record<string, string> = {};
  for (let position = 0; position < header.length; position++) cells[header[position] ?? ''] = raw[position] ?? '';
  return { line: sent.line, index: sent.index, cells, raw };
}
