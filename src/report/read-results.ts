import type { Readable } from 'node:stream';
import type { CsvEncoding } from '../csv/dialect.js';
import { readRows } from '../csv/read-rows.js';
import { isResultsHeader, renameStatusColumns, statusCell, statusColumns } from '../import/results/columns.js';

/** The status cells of one results line that the report reads (architecture.md, "Contracts"). */
export interface ResultLine {
  readonly kind: 'result';
  /** The input line the result is for (the `line` column), not the line in the results file. */
  readonly line: string;
  readonly claimKey: string;
  readonly claimId: string;
  readonly caseId: string;
  readonly outcome: string;
  readonly errorCode: string;
  readonly errorMessage: string;
  readonly errorField: string;
}

/** A record of the results file itself that could not be read (hand-edited, say): counted, never dropped. */
export interface UnreadableLine {
  readonly kind: 'unreadable';
  /** Line in the results file. */
  readonly line: number;
  readonly code: string;
  readonly message: string;
}

/** The file is a CSV, but not one of our results files. */
export class NotResultsError extends Error {
  readonly code = 'REPORT_NOT_RESULTS';
  constructor(message: string) {
    super(message);
    this.name = 'NotResultsError';
  }
}

/**
 * The lines of a results CSV, streamed: one at a time, in file order. Throws `NotResultsError`
 * when the header does not start with the status columns, and `CsvFormatError` when the file
 * cannot be read as CSV at all.
 */
export async function* readResults(input: Readable, encoding: CsvEncoding): AsyncGenerator<ResultLine | UnreadableLine> {
  const dialect = { delimiter: ',', quote: '"', encoding, header: true, trim: false };
  const rows = readRows(input, dialect, {
    // Status columns get names of their own, so a source column called `line` or `case_id` still reads.
    renameHeader: (header) => {
      if (!isResultsHeader(header)) throw new NotResultsError(`header: expected a results CSV (${statusColumns.join(', ')}, then the source columns), got ${describeHeader(header)}`);
      return renameStatusColumns(header);
    },
  });
  for await (const row of rows) {
    if ('error' in row) {
      yield { kind: 'unreadable', line: row.line, code: row.error.code, message: row.error.message };
      continue;
    }
    const cell = (column: (typeof statusColumns)[number]) => statusCell(row.cells, column);
    yield {
      kind: 'result',
      line: cell('line'),
      claimKey: cell('claim_key'),
      claimId: cell('claim_id'),
      caseId: cell('case_id'),
      outcome: cell('outcome'),
      errorCode: cell('error_code'),
      errorMessage: cell('error_message'),
      errorField: cell('error_field'),
    };
  }
}

function describeHeader(header: readonly string[]): string {
  const shown = header.slice(0, statusColumns.length).map((name) => JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name));
  return `${shown.join(', ')}${header.length > statusColumns.length ? ', …' : ''}`;
}
