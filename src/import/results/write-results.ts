import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { createEncoder } from '../../csv/encode.js';
import type { CsvEncoding } from '../../csv/dialect.js';
import type { Journal } from '../journal/journal.js';
import { okOutcomes, statusColumns, type Outcome } from './columns.js';
import { neutralise } from './neutralise.js';
import { rowResult } from './row-outcome.js';

export interface ResultsSummary {
  rows: number;
  byOutcome: Partial<Record<Outcome, number>>;
  byErrorCode: Map<string, number>;
  /** Every row ended ok (filed, created, or valid in a dry run). */
  allOk: boolean;
}

/**
 * The results CSV (architecture.md, "Contracts"): one line per input row in input order, the
 * status columns, then the source columns unchanged, every cell safe to open in a spreadsheet.
 * Written to a temporary file and renamed, so a reader never sees half a file.
 */
export async function writeResults(journal: Journal, sourceColumns: readonly string[], file: string, encoding: CsvEncoding = 'utf-8'): Promise<ResultsSummary> {
  const temporary = `${file}.${process.pid}.tmp`;
  const output = createWriteStream(temporary);
  const csv = stringify({ bom: false, record_delimiter: 'unix' });
  // In the input's encoding, so the fixed file reads back through the same mapping.
  csv.setEncoding('utf8');
  csv.pipe(createEncoder(encoding)).pipe(output);
  const summary: ResultsSummary = { rows: 0, byOutcome: {}, byErrorCode: new Map(), allOk: true };
  try {
    await write(csv, [...statusColumns, ...sourceColumns]);
    for (const record of journal.results()) {
      const result = rowResult(record);
      summary.rows++;
      summary.byOutcome[result.outcome] = (summary.byOutcome[result.outcome] ?? 0) + 1;
      if (result.errorCode !== '') summary.byErrorCode.set(result.errorCode, (summary.byErrorCode.get(result.errorCode) ?? 0) + 1);
      if (!okOutcomes.includes(result.outcome) || result.errorCode !== '') summary.allOk = false;
      const source = JSON.parse(record.source) as string[];
      const status = [
        String(record.line),
        record.claim_key === null ? '' : displayKey(record.claim_key),
        record.claim_id ?? '',
        record.case_id ?? '',
        result.outcome,
        result.errorCode,
        result.errorMessage,
        result.errorField,
        result.httpStatus === null ? '' : String(result.httpStatus),
        record.attempts === null ? '' : String(record.attempts),
        record.file_ids ?? '',
      ];
      const cells = sourceColumns.map((_, position) => source[position] ?? '');
      await write(csv, [...status, ...cells].map(neutralise));
    }
    csv.end();
    await finished(output);
    await rename(temporary, file);
  } catch (error) {
    csv.destroy();
    output.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
  return summary;
}

/** Keys are stored as JSON arrays of the key columns' values; people read them joined. */
function displayKey(claimKey: string): string {
  return (JSON.parse(claimKey) as string[]).join('|');
}

async function write(csv: ReturnType<typeof stringify>, record: string[]): Promise<void> {
  if (!csv.write(record)) await once(csv, 'drain');
}
