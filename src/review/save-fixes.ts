import { lstatSync } from 'node:fs';
import { maskCardNumbers } from '../card-numbers/mask.js';
import { basename, dirname, join } from 'node:path';
import { fieldColumns } from '../mapping/columns-read.js';
import { plainDialect, writtenDialectOf } from '../csv/layout.js';
import { writeResultRecords } from '../job-files/import/write-results.js';
import type { ResultRecord } from '../job-files/import/records.js';
import type { ImportReviewJob } from './job-types.js';

export interface SavedFixes {
  readonly file: string;
  /** The feed-back import's own journal. */
  readonly journal: string;
  readonly rows: number;
  /** The feed-back import to run, with a journal of its own. */
  readonly command: string;
}

/**
 * The fix file: the edited rows, with the other rows of their claims, as a results file (status
 * columns, then the source columns with the edits), so that the feed-back import knows which claims
 * the service already holds (they are compared and updated, never created again). In the input's
 * dialect, or a workbook when the job's results were one; 0600; the next free `<journal>.fix-N`
 * name.
 */
export async function saveFixes(
  job: ImportReviewJob,
  edits: ReadonlyMap<number, Readonly<Record<string, string>>>,
  format: 'csv' | 'xlsx',
  evidenceDir: string,
): Promise<SavedFixes> {
  const base = join(dirname(job.journal), basename(job.journal).replace(/\.journal\.sqlite$|\.sqlite$/, ''));
  let number = 1;
  // Anything at the name counts, a link too (even to nothing): never written through (docs/data.md).
  while (lstatSync(`${base}.fix-${number}.results.${format}`, { throwIfNoEntry: false }) !== undefined) number++;
  const file = `${base}.fix-${number}.results.${format}`;
  // Rows of one claim go together, whatever their outcomes: a claim created from some of its rows could not take the others later.
  const claims = new Set(
    job.rows.filter((row) => edits.has(row.line) && row.claimKey !== '').map((row) => row.claimKey),
  );
  const records = job.entries
    .filter((entry) => edits.has(entry.line) || claims.has(entry.claimKey))
    .map((entry) => {
      const cells = edits.get(entry.line) ?? job.cellsOf(entry);
      return {
        ...maskedRecord(job.recordOf(entry)),
        source: JSON.stringify(job.columns.map((column) => cells[column] ?? '')),
      };
    });
  const dialect = job.dialect ?? writtenDialectOf(job.mapping.csv, plainDialect);
  await writeResultRecords(
    records,
    job.columns,
    file,
    format === 'xlsx' ? { kind: 'xlsx', fieldColumns: fieldColumns(job.mapping) } : { kind: 'csv', dialect },
    // The cells as the page has them (masked: import-job.ts, store.ts), the record's texts just above.
    { cellsMasked: true },
  );
  const journal = `${base}.fix-${number}.journal.sqlite`;
  return {
    file,
    journal,
    rows: records.length,
    command:
      `bulk-disputes import ${quote(file)} --mapping ` +
      `${quote(job.mappingFile)}${job.idPrefix === undefined ? '' : ` --id-prefix ${quote(job.idPrefix)}`} ` +
      `--evidence-dir ${quote(evidenceDir)} --journal ${quote(journal)} --results ${quote(feedBackResults(file))}`,
  };
}

/**
 * Where the feed-back of a fix file writes its results, named: by default they would be
 * `<fix file's job>.results.csv` in the folder it runs in, the fix file itself when that is the
 * journal's folder (docs/review.md).
 */
export function feedBackResults(fixFile: string): string {
  return fixFile.replace(/\.results\.(csv|xlsx)$/, '.sent.results.$1');
}

/** The record's texts a journal of a version before masking may hold a card number in, masked as the cells are. */
function maskedRecord(record: ResultRecord): ResultRecord {
  const masked = (text: string | null) => (text === null ? null : maskCardNumbers(text));
  return {
    ...record,
    claim_key: masked(record.claim_key),
    error_message: masked(record.error_message),
    claim_error_message: masked(record.claim_error_message),
  };
}

function quote(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
