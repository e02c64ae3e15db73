import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { MappingError, parseMapping } from '../mapping/load.js';
import type { Mapping } from '../mapping/schema.js';
import { describeService, parseService } from '../api/service-identity.js';
import { journalFormat } from '../import/journal/schema.js';
import { readResultRecords, type ResultRecord } from '../import/journal/journal.js';
import { serviceMetaKey } from '../import/journal/service-binding.js';
import { rowResult } from '../import/results/row-outcome.js';
import { displayKey, resultsDialectKey } from '../import/results/write-results.js';
import { expectFormat, expectStaged, snapshotOf } from '../report/read-journal.js';
import type { WrittenDialect } from '../csv/layout.js';

/** Outcomes a reviewer fixes. */
export const outcomesToFix: readonly string[] = ['invalid', 'failed', 'not_filed', 'rejected'];

/** One row to fix, as the journal has it, and its place in the results. */
export interface ReviewRow {
  readonly line: number;
  readonly claimKey: string;
  readonly claimId: string;
  readonly outcome: string;
  readonly errorCode: string;
  readonly errorMessage: string;
  readonly errorField: string;
  readonly cells: Readonly<Record<string, string>>;
  /** The record itself, for the fix file (a results file: the feed-back import reads its status columns). */
  readonly record: ResultRecord;
}

export interface ReviewJob {
  readonly journal: string;
  readonly mapping: Mapping;
  readonly mappingFile: string;
  readonly sourceColumns: readonly string[];
  readonly dialect: WrittenDialect | undefined;
  readonly service: string;
  readonly rows: readonly ReviewRow[];
  /** Every row's outcome count, for the overview. */
  readonly outcomes: Readonly<Record<string, number>>;
  readonly totalRows: number;
}

export class ReviewJobError extends Error {
  readonly code = 'REVIEW_JOB';
}

/**
 * The job under review (issue 23): an import's journal, read from a private copy (a run on it is
 * not blocked), and its mapping, which must be the one the job ran with (the journal records its
 * sha256): the page checks fixes with it. Only the rows to fix are kept in memory.
 */
export async function openReviewJob(journalFile: string, mappingFile: string): Promise<ReviewJob> {
  const mappingText = await readFile(mappingFile, 'utf8').catch((error: unknown) => {
    throw new MappingError(mappingFile, [{ field: '', line: undefined, message: `expected a readable mapping file, got ${(error as { code?: string }).code ?? 'unreadable'}` }]);
  });
  const mapping = parseMapping(mappingText, mappingFile);
  const { database, folder } = await snapshotOf(journalFile);
  try {
    expectFormat(database, 'format', journalFormat, 'an import journal');
    expectStaged(database, '1');
    const meta = (key: string) => (database.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
    const recorded = (JSON.parse(meta('fingerprint') ?? '{}') as { mapping?: string }).mapping;
    const given = createHash('sha256').update(mappingText).digest('hex');
    if (recorded !== given) throw new ReviewJobError(`--mapping ${mappingFile}: expected the mapping the job ran with (sha256 ${recorded ?? 'not recorded'}), got another (sha256 ${given})`);
    const sourceColumns = JSON.parse(meta('source_columns') ?? '[]') as string[];
    const dialectText = meta(resultsDialectKey);
    const service = parseService(meta(serviceMetaKey));
    const rows: ReviewRow[] = [];
    const outcomes: Record<string, number> = {};
    let totalRows = 0;
    for (const record of readResultRecords(database)) {
      const result = rowResult(record);
      totalRows++;
      outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
      if (!outcomesToFix.includes(result.outcome)) continue;
      const source = JSON.parse(record.source) as string[];
      rows.push({
        line: record.line,
        claimKey: record.claim_key === null ? '' : displayKey(record.claim_key),
        claimId: record.claim_id ?? '',
        outcome: result.outcome,
        errorCode: result.errorCode,
        errorMessage: result.errorMessage,
        errorField: result.errorField,
        cells: Object.fromEntries(sourceColumns.map((column, position) => [column, source[position] ?? ''])),
        record,
      });
    }
    return {
      journal: journalFile,
      mapping,
      mappingFile,
      sourceColumns,
      dialect: dialectText === undefined ? undefined : (JSON.parse(dialectText) as WrittenDialect),
      service: service === undefined ? 'not recorded' : describeService(service),
      rows,
      outcomes,
      totalRows,
    };
  } finally {
    database.close();
    await rm(folder, { recursive: true, force: true });
  }
}
