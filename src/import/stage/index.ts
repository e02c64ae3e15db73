import { availableParallelism } from 'node:os';
import { cardNumberColumnsSkipped, checkNotCardNumbers, columnsSentWhole } from '../../mapping/card-number-columns.js';
import type { Readable } from 'node:stream';
import Tinypool from 'tinypool';
import { plainLayout, type FileLayout } from '../../csv/layout.js';
import type { ReadRowsOptions } from '../../csv/read-rows.js';
import type { CsvRecord, CsvRow } from '../../csv/records.js';
import type { LinesOutside } from '../../csv/report-region.js';
import { exportLayout } from '../export-layout.js';
import { exportRecordBatches } from '../export-records.js';
import { columnReadings } from '../../mapping/column-readings.js';
import { readWorkbookRows } from '../../workbook/read-rows.js';
import type { ByteSource } from '../../files/byte-source.js';
import type { Mapping } from '../../mapping/schema.js';
import { checkHeaderFits } from '../../mapping/header-fit.js';
import type { Shard } from '../../job-files/claims/ids.js';
import type { Journal } from '../journal/journal.js';
import { renamedStatusCount, renameStatusColumns } from '../../job-files/import/columns.js';
import type { HeaderSeen, PreparedRow } from '../../staging/prepare-row.js';
import { BatchPreparer, type PrepareTask, type SentRecord } from '../../staging/prepare-batch.js';
import type { StageWorkerData } from '../../staging/worker.js';
import { stagingWorkerFile } from '../../staging/worker-file.js';
import { dropRowIndexes } from '../journal/staging-writes.js';
import { createClaimRowsIndex } from '../../job-files/import/schema.js';
import { StageWriter } from './write.js';

/**
 * The stage step (docs/import.md, "What happens, in order"): every record of the input, read as
 * a stream, mapped and checked against the wire schema, written into the journal in batched
 * transactions, grouped by claim key however far apart its rows are.
 *
 * Three parts: this thread reads the CSV and sends batches of records to a worker thread
 * (src/staging/worker.ts), which maps and checks them; it writes what comes back to the
 * journal, batch by batch in input order, and is the only thread that touches the journal. At most
 * `batchesInFlight` batches are out at once, and the input is read only as batches come back:
 * memory is that window, whatever the file's size.
 *
 * One worker, not one per core: each isolate costs the process ~25 MiB (10,000-row dry run:
 * 179.7 MiB with two, 154.3 with one). When the worker already holds `workerQueue` batches, this
 * thread prepares the next batch itself instead of waiting: on two cores that keeps both busy, as
 * two workers did, with one isolate.
 */

/** A workbook input: the file (or object), and its sheet (default: the first). */
export interface WorkbookInput {
  workbook: string | ByteSource;
  sheet?: string | undefined;
}

export interface StageOptions {
  /** A CSV byte stream, read in the mapping's dialect, or a workbook. */
  input: Readable | WorkbookInput;
  mapping: Mapping;
  /** The mapping's file, named in its errors (a `not_card_numbers` name the header lacks). */
  mappingFile?: string | undefined;
  journal: Journal;
  shard?: Shard | undefined;
  onProgress?: (rowsRead: number) => void;
  /**
   * Claims go out while staging goes on: the rows staged so far are checked against each other
   * from time to time, and each check says through which record index (src/import/stage/frontier.ts).
   */
  onChecked?: (throughIndex: number) => void;
}

export interface StageSummary {
  sourceColumns: string[];
  /** The input is one of our results files, fixed and fed back in. */
  resultsInput: boolean;
  rowsRead: number;
  /** The input's line ending and byte order mark, for the results CSV to repeat. */
  layout: FileLayout;
  /** Under the mapping's `report` layout: the lines that were not rows, and why. */
  linesOutside: LinesOutside | undefined;
}

/** Records per batch: one message each way and one journal transaction. */
const batchRows = 1000;
/** And at most this much cell text, so that long rows make smaller batches (a worker's heap is capped). */
const batchTextLength = 1024 * 1024;
/** A worker where there is a second core; on one core this thread prepares every batch. */
const workerThreads = availableParallelism() > 1 ? 1 : 0;
/**
 * Batches at the worker before this thread prepares one itself. Two: this thread is the slower of
 * the two (it parses the CSV and writes the journal; profiled on 100,000 rows with one, it was
 * busy 96% of the time and the worker 47%), so a batch waiting at the worker costs nothing, and
 * every batch it prepares itself delays the journal. Measured on 100,000 rows, three rounds
 * alternating: 5.91, 5.73 and 5.75 s with two against 6.31, 8.02 and 6.11 s with one (and 6.34,
 * 5.72, 6.19 s with three). An earlier measurement on 200,000 rows, on a machine loaded 3–4
 * and with an older staging, had found one better (16,605 and 15,887 rows/s against 15,812 and
 * 13,673).
 */
const workerQueue = 2;
const batchesInFlight = workerQueue + 1;
/**
 * A worker's live data is its mapping and a few batches. V8's default young generation (16 MiB
 * semi-spaces) let each worker add ~45 MiB to the process; with 4 MiB it is ~30 MiB, the same
 * throughput (a 100,000-row dry run: peak 297 → 237 MiB with two workers); 2 MiB saved nothing
 * more (measured, a 10,000-row dry run: 150.2 and 150.6 MiB). The old generation's cap is a guard:
 * batches are bounded in rows and text, so a worker never comes near it.
 */
const workerHeap = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 128 };
/**
 * The first check of the rows staged so far after this many rows (a first batch of its own), then
 * each after twice as many as the one before: the checks read every row staged, so doubling keeps
 * their sum within twice the one at the end, while the first claims go out after a few rows.
 */
const firstCheckRows = 64;
/** SQLite's default, and staging's: a checkpoint after about 40 MB of WAL instead of 4 MB. */
const defaultCheckpointPages = 1000;
const stagingCheckpointPages = 10_000;

export async function stageRows(options: StageOptions): Promise<StageSummary> {
  // The rows are indexed when staging ends (StageWriter.finish), not row by row.
  dropRowIndexes(options.journal.database);
  // Claims sent meanwhile are read by their key.
  if (options.onChecked !== undefined) createClaimRowsIndex(options.journal.database);
  const writer = new StageWriter(options.journal);
  // Fewer checkpoints while staging: each one syncs the file, and staging writes the whole input
  // (measured on 200,000 rows of journal inserts: 10–25% less time). Restored below.
  options.journal.database.pragma(`wal_autocheckpoint = ${stagingCheckpointPages}`);
  let layout = plainLayout;
  let linesOutside: LinesOutside | undefined;
  const { seen, batches } = readInput(options, {
    onLayout: (found) => {
      layout = found;
    },
    onLinesOutside: (outside) => {
      linesOutside = outside;
    },
  });
  const preparer = batchPreparer(options);
  const inFlight: { rowsRead: number; lastIndex: number; prepared: Promise<PreparedRow[]> }[] = [];
  let rowsRead = 0;
  let nextCheckAt = firstCheckRows;
  let records: SentRecord[] = [];
  let textLength = 0;
  const writeOldest = async () => {
    const oldest = inFlight.shift();
    if (oldest === undefined) return;
    const rows = await oldest.prepared;
    options.journal.transaction(() => {
      for (const row of rows) writer.write(row);
    });
    options.onProgress?.(oldest.rowsRead);
    if (options.onChecked !== undefined && oldest.rowsRead >= nextCheckAt) {
      options.journal.transaction(() => {
        writer.check();
      });
      nextCheckAt = oldest.rowsRead * 2;
      options.onChecked(oldest.lastIndex);
    }
  };
  const sendBatch = async () => {
    const task: PrepareTask = { seen, records };
    const lastIndex = records.at(-1)?.index ?? -1;
    records = [];
    textLength = 0;
    const prepared = preparer.prepare(task);
    // Awaited in order below; until then a failure must not count as unhandled.
    prepared.catch(() => undefined);
    inFlight.push({ rowsRead, lastIndex, prepared });
    if (inFlight.length >= batchesInFlight) await writeOldest();
  };
  try {
    // One await per batch the parser has ready, not per row.
    for await (const batch of batches) {
      for (const record of batch) {
        records.push(record);
        rowsRead++;
        if (record.raw !== undefined) for (const cell of record.raw) textLength += cell.length;
        // While claims wait for the first check, the first batch is a small one.
        const rows = options.onChecked !== undefined && rowsRead <= firstCheckRows ? firstCheckRows : batchRows;
        if (records.length >= rows || textLength >= batchTextLength) await sendBatch();
      }
    }
    if (records.length > 0) await sendBatch();
    while (inFlight.length > 0) await writeOldest();
    options.journal.transaction(() => {
      writer.finish();
    });
  } finally {
    options.journal.database.pragma(`wal_autocheckpoint = ${defaultCheckpointPages}`);
    await preparer.destroy();
  }
  return {
    sourceColumns: seen.header.slice(seen.statusCount),
    resultsInput: seen.resultsInput,
    rowsRead,
    layout,
    linesOutside,
  };
}

/** What the input is to staging: read as a stream, mapped by `mapping`, whose file its errors name. */
export type InputToStage = Pick<StageOptions, 'input' | 'mapping' | 'mappingFile'>;

/**
 * The input's records in batches, as staging reads them, and what its header said (`seen`, filled
 * before the first record): also how the results of a thinned journal read its cells again
 * (src/import/thinned), so that both see the same records with the same indexes.
 */
export function readInput(
  options: InputToStage,
  hooks: Pick<ReadRowsOptions, 'onLayout' | 'onLinesOutside'> = {},
): { seen: HeaderSeen; batches: AsyncIterable<CsvRecord[]> } {
  const seen: HeaderSeen = { header: [], resultsInput: false, statusCount: 0, unmaskedColumns: [], sentWhole: [] };
  const onHeader = (names: readonly string[]) => {
    // Before any row is read: a renamed column would fail every row alike (runImport checks it
    // before the journal is made; this holds for any caller), a misspelt not_card_numbers name
    // would opt out nothing and say nothing.
    const statusCount = renamedStatusCount(names);
    checkHeaderFits(options.mapping, names.slice(statusCount), {
      file: 'the input',
      mappingFile: options.mappingFile ?? 'the mapping',
      kind: statusCount > 0 ? 'results file' : 'export',
    });
    checkNotCardNumbers(options.mappingFile ?? 'mapping', options.mapping, names);
    seen.unmaskedColumns = [...cardNumberColumnsSkipped(options.mapping, names)];
    seen.sentWhole = columnsSentWhole(options.mapping, names);
    seen.header = names;
    seen.statusCount = statusCount;
    seen.resultsInput = seen.statusCount > 0;
  };
  return { seen, batches: inputBatches(options, { ...hooks, onHeader, renameHeader: renameStatusColumns }) };
}

const noHeaderYet: HeaderSeen = { header: [], resultsInput: false, statusCount: 0, unmaskedColumns: [], sentWhole: [] };

/**
 * Who prepares a batch: the worker, unless it already holds `workerQueue` batches (or there is no
 * second core), then this thread.
 */
function batchPreparer(options: StageOptions): {
  prepare(task: PrepareTask): Promise<PreparedRow[]>;
  destroy(): Promise<void>;
} {
  const workerData: StageWorkerData = { mapping: options.mapping, shard: options.shard };
  const pool =
    workerThreads === 0
      ? undefined
      : new Tinypool({
          filename: stagingWorkerFile().href,
          minThreads: workerThreads,
          maxThreads: workerThreads,
          workerData,
          resourceLimits: workerHeap,
        });
  const preparedHere = new BatchPreparer(options.mapping, options.shard);
  // A worker takes a few hundred milliseconds to load its modules: until it has answered an empty
  // batch, this thread prepares every batch, so that the first rows (and the first claims sent
  // while staging goes on) do not wait for it.
  let workerReady = false;
  pool?.run({ seen: noHeaderYet, records: [] } satisfies PrepareTask).then(
    () => {
      workerReady = true;
    },
    // A worker that cannot start leaves every batch to this thread.
    () => undefined,
  );
  let atWorker = 0;
  // Runs synchronously up to the worker's answer: a batch prepared here is ready when this returns.
  const prepare = async (task: PrepareTask): Promise<PreparedRow[]> => {
    if (pool === undefined || !workerReady || atWorker >= workerQueue) return preparedHere.prepare(task);
    atWorker++;
    try {
      return (await pool.run(task)) as PreparedRow[];
    } finally {
      atWorker--;
    }
  };
  return {
    prepare,
    destroy: async () => {
      await pool?.destroy();
    },
  };
}

/** The input's records in batches: a CSV's as the parser has them ready, a workbook's row by row. */
function inputBatches(
  options: InputToStage,
  hooks: Pick<ReadRowsOptions, 'onHeader' | 'onLayout' | 'onLinesOutside' | 'renameHeader'>,
): AsyncIterable<CsvRecord[]> {
  const input = options.input;
  return 'workbook' in input
    ? workbookRecords(
        readWorkbookRows(input.workbook, {
          sheet: input.sheet,
          readings: columnReadings(options.mapping),
          ...hooks,
          ...exportLayout(options.mapping),
        }),
      )
    : exportRecordBatches(input, options.mapping, hooks);
}

/** A workbook's rows as the CSV reader's batches of records, one row each (exceljs reads row by row). */
async function* workbookRecords(rows: AsyncIterable<CsvRow>): AsyncGenerator<CsvRecord[]> {
  for await (const row of rows)
    yield [{ line: row.line, index: row.index, raw: row.raw, error: 'error' in row ? row.error : undefined }];
}
