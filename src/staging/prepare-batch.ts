import type { CsvRecord } from '../csv/records.js';
import type { Mapping } from '../mapping/schema.js';
import { inShard, type Shard } from '../job-files/claims/ids.js';
import { prepareRow, WireCheck, type HeaderSeen, type PreparedRow } from './prepare-row.js';

/** A record as it crosses to the worker: its cells as read, without a header-keyed copy (the reader makes none). */
export type SentRecord = CsvRecord;

export interface PrepareTask {
  seen: HeaderSeen;
  records: readonly SentRecord[];
}

/**
 * Batches of records mapped and checked by one thread: the staging worker's (worker.ts), or the
 * staging thread's own when the worker already has its hands full (index.ts).
 */
export class BatchPreparer {
  // Per thread: rows of a claim that land in this thread's batches share their claim-level check.
  private readonly wireCheck = new WireCheck();

  constructor(
    private readonly mapping: Mapping,
    private readonly shard: Shard | undefined,
  ) {}

  /** The batch's rows of this shard, prepared for the journal, in the batch's order. */
  prepare(task: PrepareTask): PreparedRow[] {
    const prepared: PreparedRow[] = [];
    for (const sent of task.records) {
      // Mapped by index from the cells as read: no header-keyed object per row.
      const row = prepareRow(sent, this.mapping, task.seen, this.wireCheck);
      if (inShard(row.claimKey, this.shard)) prepared.push(row);
      // Another shard's row: only the transaction it names, so that this shard knows the dispute.
      else if (row.sameTransaction !== undefined)
        prepared.push({
          idx: row.idx,
          line: row.line,
          source: '',
          claimKey: row.claimKey,
          reportedCreated: row.reportedCreated,
          otherShard: { sameTransaction: row.sameTransaction },
        });
    }
    return prepared;
  }
}
