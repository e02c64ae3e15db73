import type { Readable } from 'node:stream';
import { maskCardNumbers } from '../../card-numbers/mask.js';
import type { DetectedDialect } from './results-dialect.js';
import { isResultsHeader, isOkResult, renameStatusColumns, statusCell, statusColumns } from '../import/columns.js';
import { tableRows } from './read-table.js';
import { NotResultsError } from '../../files/not-results-error.js';
import { isMigrateHeader, migrateColumns } from '../migrate/columns.js';
import { withdrawColumns, withdrawOkOutcomes } from '../withdraw/columns.js';

/**
 * The status cells of one results line that the report reads (docs/import.md, "The results CSV"):
 * an import's row, a migration's v1 case (its claim key is the group key, its line the case's place
 * in the v1 listing), or a withdraw job's case (its line the case's place in the results).
 */
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
  /** The outcome is a success of its kind (filed, created, valid; migrated, skipped; withdrawn, deleted, already_closed). */
  readonly ok: boolean;
}

/** A record of the results file itself that could not be read (hand-edited, say): counted, never dropped. */
export interface UnreadableLine {
  readonly kind: 'unreadable';
  /** Line in the results file. */
  readonly line: number;
  readonly code: string;
  readonly message: string;
}

/** What a migrate-v1 results CSV counts as done. */
export const migrateOkOutcomes: readonly string[] = ['migrated', 'skipped', 'valid'];

/** Which job wrote a results file, told by its header: the import, migrate-v1 or withdraw. */
export type ResultsKind = 'import' | 'migrate' | 'withdraw';

export function resultsKindOf(header: readonly string[]): ResultsKind | undefined {
  if (isResultsHeader(header)) return 'import';
  if (isMigrateHeader(header)) return 'migrate';
  return isWithdrawHeader(header) ? 'withdraw' : undefined;
}

/**
 * The header to read a results file's rows under: the import's status columns get names of their
 * own, so a source column called `line` or `case_id` still reads.
 */
export function resultsHeader(kind: ResultsKind, header: readonly string[]): readonly string[] {
  return kind === 'import' ? renameStatusColumns(header) : header;
}

/**
 * The lines of a results CSV (the import's, migrate-v1's or withdraw's), streamed: one at a time,
 * in file order, in the dialect the file was written in (results-dialect.ts). Throws
 * `NotResultsError` when the header is none of these, and `CsvFormatError` when the file cannot
 * be read as CSV at all.
 */
export async function* readResults(
  input: Readable,
  written: DetectedDialect,
): AsyncGenerator<ResultLine | UnreadableLine> {
  // Set by the header callback, hence the cast: control flow cannot see it change.
  let kind = 'import' as ResultsKind;
  const { rows, text } = tableRows({ stream: input, dialect: written }, (header) => {
    kind = resultsKindOf(header) ?? throwNotResults('a results CSV', header);
    return resultsHeader(kind, header);
  });
  let position = 0;
  for await (const row of rows) {
    if ('error' in row) {
      yield { kind: 'unreadable', line: row.line, code: row.error.code, message: row.error.message };
      continue;
    }
    // Cells were neutralised against formulas when written: read as the journal holds them.
    yield resultLine(kind, row.cells, ++position, text);
  }
}

/**
 * The cells a results file of a version before the import masked may hold a card number in: its
 * claim key (or group key) and its message. What reads it (report, track, withdraw, review) masks
 * them; ids are the service's and stay as written, as the jobs act on them.
 */
const maskedColumns: ReadonlySet<string> = new Set(['claim_key', 'group_key', 'error_message']);

/** One line of a results file of `kind` (read under `resultsHeader`), each cell read through `read`. */
export function resultLine(
  kind: ResultsKind,
  cells: Readonly<Record<string, string>>,
  position: number,
  read: (cell: string) => string,
): ResultLine {
  const text = (column: string, cell: string) => (maskedColumns.has(column) ? maskCardNumbers(read(cell)) : read(cell));
  if (kind === 'migrate') {
    const cell = (column: (typeof migrateColumns)[number]) => text(column, cells[column] ?? '');
    return migrateLine(position, {
      caseId: cell('case_id'),
      claimId: cell('claim_id'),
      groupKey: cell('group_key'),
      outcome: cell('outcome'),
      errorCode: cell('error_code'),
      errorMessage: cell('error_message'),
    });
  }
  if (kind === 'withdraw') {
    const cell = (column: (typeof withdrawColumns)[number]) => text(column, cells[column] ?? '');
    return withdrawLine(position, {
      claimKey: cell('claim_key'),
      claimId: cell('claim_id'),
      caseId: cell('case_id'),
      outcome: cell('outcome'),
      errorCode: cell('error_code'),
      errorMessage: cell('error_message'),
    });
  }
  const cell = (column: (typeof statusColumns)[number]) => text(column, statusCell(cells, column));
  const outcome = cell('outcome');
  const errorCode = cell('error_code');
  return {
    kind: 'result',
    line: cell('line'),
    claimKey: cell('claim_key'),
    claimId: cell('claim_id'),
    caseId: cell('case_id'),
    outcome,
    errorCode,
    errorMessage: cell('error_message'),
    errorField: cell('error_field'),
    // `created` with `not_finished` (a killed run's claim awaiting its filing) is not done; a row set aside is.
    ok: isOkResult(outcome, errorCode),
  };
}

/** One v1 case of a migration, from its results CSV or its journal. */
export function migrateLine(
  position: number,
  cells: {
    caseId: string;
    claimId: string;
    groupKey: string;
    outcome: string;
    errorCode: string;
    errorMessage: string;
  },
): ResultLine {
  const skipped = cells.outcome === 'skipped';
  return {
    kind: 'result',
    line: String(position),
    // A skipped case stays in the claim it already had: it belongs to none of the migration's
    // claims (so the counts match migrate-v1's own summary, and its group is not "mixed").
    claimKey: skipped ? '' : cells.groupKey,
    claimId: cells.claimId,
    caseId: cells.caseId,
    outcome: cells.outcome,
    errorCode: cells.errorCode,
    errorMessage: cells.errorMessage,
    errorField: '',
    ok: migrateOkOutcomes.includes(cells.outcome) && cells.errorCode === '',
  };
}

/**
 * One case of a withdraw job, from its results file or its journal; its line is its place in the
 * results. A case named only by its id (a plain list) has no claim key: it counts under its claim
 * id, as withdraw's own summary counts claims; one the service does not hold (no claim id either)
 * belongs to no claim.
 */
export function withdrawLine(
  position: number,
  cells: {
    claimKey: string;
    claimId: string;
    caseId: string;
    outcome: string;
    errorCode: string;
    errorMessage: string;
  },
): ResultLine {
  return {
    kind: 'result',
    line: String(position),
    claimKey: cells.claimKey === '' ? cells.claimId : cells.claimKey,
    claimId: cells.claimId,
    caseId: cells.caseId,
    outcome: cells.outcome,
    errorCode: cells.errorCode,
    errorMessage: cells.errorMessage,
    errorField: '',
    ok: withdrawOkOutcomes.includes(cells.outcome) && cells.errorCode === '',
  };
}

/** withdraw's columns first; columns a person added after them are ignored. */
export function isWithdrawHeader(header: readonly string[]): boolean {
  return withdrawColumns.every((name, index) => header[index] === name);
}

/** The header is none of our results files': `what` says which kind of file was read. */
export function throwNotResults(what: string, header: readonly string[]): never {
  throw new NotResultsError(
    `header: expected ${what} (${statusColumns.join(', ')}, then the source columns; migrate-v1's ` +
      `${migrateColumns.join(', ')}; or withdraw's ${withdrawColumns.join(', ')}), got ` +
      describeHeader(header),
  );
}

function describeHeader(header: readonly string[]): string {
  const shown = header
    .slice(0, statusColumns.length)
    .map((name) => JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name));
  return `${shown.join(', ')}${header.length > statusColumns.length ? ', …' : ''}`;
}
