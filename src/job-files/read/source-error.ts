import { RefusalError } from '../../errors/coded-error.js';

/**
 * A source a job cannot read (withdraw's and track's: a journal, a results file or a list of ids):
 * missing, damaged, of no kind it knows, or without the column it needs. Thrown before any
 * request, in one line that names the file and what was expected; the CLI exits 2 (nothing sent).
 * Its code is the one withdraw's sources have always carried (track's too): scripts match on it.
 */
export class SourceError extends RefusalError {
  readonly code = 'WITHDRAW_SOURCE';
  override readonly name = 'SourceError';
}

/** The error for one source file, its message on one line (a foreign message, csv-parse's or SQLite's, may hold line breaks). */
export function sourceError(file: string, message: string, cause?: unknown): SourceError {
  return new SourceError(
    `source ${file}: ${message.replace(/\s*[\r\n]+\s*/g, ' ')}`,
    cause === undefined ? undefined : { cause },
  );
}

/** What a source may be, for the "expected …" half of a message. */
export const sourceKinds =
  'an import or migrate-v1 journal, a results file of ours (CSV or .xlsx), or a CSV or workbook with a claim_id or case_id column';
