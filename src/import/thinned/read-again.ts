import type { JournalDatabase } from '../../journal/open.js';
import { JournalMismatchError } from '../../journal/open.js';
import { readDigestedResultRecords, type DigestedResultRecord } from '../../job-files/import/result-records.js';
import type { ResultRecord } from '../../job-files/import/records.js';
import { sameRowDigest } from '../../staging/dispute-identity.js';
import { stagedCells } from '../../staging/prepare-row.js';
import type { Mapping } from '../../mapping/schema.js';
import { readInput } from '../stage/index.js';
import type { ByteSource } from '../../files/byte-source.js';
import type { Readable } from 'node:stream';

/** The input a thinned journal's results read their cells from again: the one its fingerprint names. */
export interface InputReadAgain {
  readonly source: ByteSource;
  readonly kind: 'csv' | 'xlsx';
  readonly sheet?: string | undefined;
  readonly mapping: Mapping;
  readonly mappingFile: string;
  /** The journal, named in a refusal. */
  readonly journalFile: string;
}

/**
 * A thinned journal's result records with each row's cells read again from the input (docs/import.md,
 * "Resume"): prune removed them from the journal, and the fingerprint says the input is the bytes
 * they were staged from. The input is read as staging reads it (`readInput`) and each record turned
 * into its `source` by staging's own function (`stagedCells`), masked the same way; journal rows and
 * input records are zipped by `idx`, a batch of the input's at a time, neither held whole. A record
 * no row has is another shard's. A row whose digest (`same_row`) the cells read again do not give,
 * or one the input never reaches, means other bytes than the journal's: refused, no results written.
 */
export async function* resultRecordsReadAgain(
  database: JournalDatabase,
  input: InputReadAgain,
): AsyncGenerator<readonly ResultRecord[]> {
  const rows = readDigestedResultRecords(database);
  let stream: Readable | undefined;
  try {
    stream = input.kind === 'xlsx' ? undefined : await input.source.open();
    const { seen, batches } = readInput({
      input: stream ?? { workbook: input.source, sheet: input.sheet },
      mapping: input.mapping,
      mappingFile: input.mappingFile,
    });
    let next = rows.next();
    for await (const batch of batches) {
      const found: ResultRecord[] = [];
      for (const record of batch) {
        if (next.done === true) break;
        const row = next.value;
        // Another shard's row: staged only as the transaction it names, in no result.
        if (record.index < row.idx) continue;
        if (record.index > row.idx) throw notInInput(input, row);
        const { source } = stagedCells(record, seen);
        if (row.same_row !== null && sameRowDigest(source) !== row.same_row) throw otherCells(input, row);
        row.source = source;
        found.push(row);
        next = rows.next();
      }
      if (found.length > 0) yield found;
      if (next.done === true) break;
    }
    if (next.done !== true) throw notInInput(input, next.value);
  } finally {
    rows.return(undefined);
    stream?.destroy();
  }
}

const restartHint =
  'run the same command with --restart to stage the input afresh (claims already sent are found at the service, not sent again)';

function otherCells(input: InputReadAgain, row: DigestedResultRecord): JournalMismatchError {
  return new JournalMismatchError(
    `${input.journalFile}: expected line ${row.line} of ${input.source.name} to read as the cells the journal staged ` +
      `(it was thinned by prune, so they are read again from the input), got other cells: ` +
      `the input is not the file the journal was made from; ${restartHint}`,
  );
}

function notInInput(input: InputReadAgain, row: DigestedResultRecord): JournalMismatchError {
  return new JournalMismatchError(
    `${input.journalFile}: expected ${input.source.name} to hold the row the journal staged from line ${row.line} ` +
      `(it was thinned by prune, so its cells are read again from the input), got no such row: ` +
      `the input is not the file the journal was made from; ${restartHint}`,
  );
}
