import { maskCells } from '../mapping/card-number-columns.js';
import { describeService } from '../api/service-identity.js';
import { readResultRecordAt, readResultRecords } from '../job-files/import/result-records.js';
import type { ResultRecord } from '../job-files/import/records.js';
import { mergeByLine, MergeRefusedError } from '../job-files/import/merge.js';
import { openShardJournals, type OpenShards } from '../job-files/import/merge-journals.js';
import { importMetaOf } from '../job-files/import/meta.js';
import type { ThinnedUse } from '../job-files/import/thinned.js';
import { parseMapping } from '../mapping/load.js';
import type { Mapping } from '../mapping/schema.js';
import { importLine } from '../job-files/read/read-journal.js';
import { Summariser, type Summary } from '../job-files/summarise.js';
import { outcomesToFix, ReviewJobError, type ImportReviewJob, type ReviewRow, type RowEntry } from './job-types.js';
import { jobMapping } from './job-mapping.js';

/** Why review refuses a thinned journal, and what to do instead. */
const reviewOfThinned: ThinnedUse = {
  needs: 'the page shows and fixes their cells',
  instead:
    '`bulk-disputes report` the journal for its outcomes; to fix rows, run the import again with its input and ' +
    '--journal (it writes the results with the cells read again from the input) and fix those',
};

/**
 * An import's journal, or the journals of its shards (checked as merge-results checks them: one
 * input, one mapping, one service, every shard once), with the mapping the job ran with: the
 * journal records its sha256, and the page checks fixes with it.
 */
export async function openImportJob(
  files: readonly string[],
  givenMapping: string | undefined,
): Promise<ImportReviewJob> {
  const opened = await openShardJournals(files, reviewOfThinned).catch((error: unknown) => {
    throw error instanceof MergeRefusedError ? new ReviewJobError(error.message, { cause: error }) : error;
  });
  try {
    const [first] = opened.shards;
    if (first === undefined) throw new ReviewJobError('expected the journal of a job, got none');
    const meta = importMetaOf(first.database, first.job.file);
    // --mapping, else the one the journal recorded while it is unchanged.
    const { file: mappingFile, text: mappingText } = await jobMapping(givenMapping, {
      file: meta.get('mapping_file'),
      sha256: first.job.mappingSha256,
    });
    const parsed = parseMapping(mappingText, mappingFile);
    // A job run with --id-prefix is checked and fed back with its ids as they were made.
    const idPrefix = meta.get('fingerprint')?.idPrefix;
    const mapping = idPrefix === undefined ? parsed : { ...parsed, claim: { ...parsed.claim, id_prefix: idPrefix } };
    const dialect = meta.get('results_dialect');
    const columns = first.job.sourceColumns;
    const { entries, rows, summary, mixedClaims } = readRows(opened, columns, mapping);
    const service = opened.shards.find((shard) => shard.job.service !== undefined)?.job.service;
    const byLine = new Map(rows.map((row) => [row.line, row]));
    const recordOf = (entry: RowEntry) => {
      const record =
        byLine.get(entry.line)?.record ??
        readResultRecordAt(opened.shards[entry.shard]?.database ?? first.database, entry.idx);
      if (record === undefined) throw new Error(`line ${entry.line}: no longer in its journal's copy`);
      return record;
    };
    return {
      kind: 'import',
      journals: opened.shards.map((shard) => shard.job.file),
      journal: first.job.file,
      mapping,
      mappingFile,
      idPrefix,
      columns,
      dialect,
      inputKind: meta.get('input_kind') ?? 'csv',
      evidenceDir: meta.get('evidence_dir'),
      service:
        service === undefined ? (first.job.dryRun ? 'none (a dry run)' : 'not recorded') : describeService(service),
      entries,
      rows,
      summary,
      mixedClaims,
      fixOutcomes: outcomesToFix,
      recordOf,
      cellsOf: (entry) =>
        byLine.get(entry.line)?.cells ?? cellsFrom(columns, JSON.parse(recordOf(entry).source) as string[], mapping),
      matching: (text) => {
        // The cells of every row, searched where they are kept (JSON text: close enough for a search box).
        const found = opened.shards.map(
          (shard) =>
            new Set(
              shard.database
                .prepare('SELECT idx FROM rows WHERE instr(lower(source), ?) > 0')
                .pluck()
                .all(text) as number[],
            ),
        );
        return (entry) => found[entry.shard]?.has(entry.idx) === true;
      },
      close: async () => opened.close(),
    };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

/** Every row of every shard in input order, the rows to fix with their cells, and the report's figures. */
function readRows(
  opened: OpenShards,
  columns: readonly string[],
  mapping: Mapping,
): { entries: RowEntry[]; rows: ReviewRow[]; summary: Summary; mixedClaims: Set<string> } {
  const sources = opened.shards.map((shard, position) => ({
    file: shard.job.file,
    rows: tagged(readResultRecords(shard.database), position),
  }));
  const entries: RowEntry[] = [];
  const rows: ReviewRow[] = [];
  const summariser = new Summariser();
  try {
    for (const { record, shard } of mergeByLine(sources)) {
      const line = importLine(record);
      summariser.add(line);
      const entry: RowEntry = {
        line: record.line,
        shard,
        idx: record.idx,
        outcome: line.outcome,
        errorCode: line.errorCode,
        errorMessage: line.errorMessage,
        errorField: line.errorField,
        claimKey: line.claimKey,
        claimId: line.claimId,
        caseId: line.caseId,
        toFix: outcomesToFix.includes(line.outcome),
      };
      entries.push(entry);
      if (entry.toFix)
        rows.push({ ...entry, cells: cellsFrom(columns, JSON.parse(record.source) as string[], mapping), record });
    }
  } finally {
    for (const source of sources) source.rows.return(undefined);
  }
  return { entries, rows, summary: summariser.summary(), mixedClaims: summariser.mixedClaimKeys() };
}

function* tagged(
  records: Generator<ResultRecord>,
  shard: number,
): Generator<{ line: number; record: ResultRecord; shard: number }> {
  try {
    for (const record of records) yield { line: record.line, record, shard };
  } finally {
    records.return(undefined);
  }
}

/**
 * A row's cells by column, masked as the import masks them (a journal of a version before the
 * import masked may hold card numbers), the mapping's `not_card_numbers` columns kept as read.
 */
const cellsFrom = (columns: readonly string[], source: readonly string[], mapping: Mapping) =>
  maskCells(Object.fromEntries(columns.map((column, position) => [column, source[position] ?? ''])), mapping);
