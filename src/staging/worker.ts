import Tinypool from 'tinypool';
import type { Mapping } from '../mapping/schema.js';
import type { Shard } from '../job-files/claims/ids.js';
import type { PreparedRow } from './prepare-row.js';
import { BatchPreparer, type PrepareTask } from './prepare-batch.js';

/**
 * The staging worker thread: maps and checks batches of records the main thread has read
 * (prepare-batch.ts). A row's mapping and wire check depend on no other row, so this thread
 * prepares batches while the main thread reads the input and writes the journal.
 */

export interface StageWorkerData {
  mapping: Mapping;
  shard: Shard | undefined;
}

const { mapping, shard } = Tinypool.workerData as StageWorkerData;
const preparer = new BatchPreparer(mapping, shard);

export default function prepareBatch(task: PrepareTask): PreparedRow[] {
  return preparer.prepare(task);
}
