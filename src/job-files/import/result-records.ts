import type { JournalDatabase } from '../../journal/open.js';
import type { ClaimStep, ResultRecord } from './records.js';

/**
 * Every row with its claim, in input order: the results CSV's source (and the report's and
 * merge-results', reading a journal). Only the columns the results read (not the mapped case and
 * evidence, as long as the source), read as arrays and named in one object literal: a re-run of a
 * finished 100,000-row import read them in 0.3 s instead of 0.65 s as better-sqlite3's objects of
 * every column.
 */
const resultsQuery = (
  changedFields: string,
  where = '',
) => `SELECT r.idx, r.line, r.source, r.claim_key, r.case_id, r.file_ids, ${changedFields}, r.outcome,
r.error_code, r.error_message, r.error_field, r.http_status,
       c.claim_id, c.step, c.attempts, c.http_status, c.error_code, c.error_message, c.error_field
FROM rows r LEFT JOIN claims c ON c.claim_key = r.claim_key ${where} ORDER BY r.idx`;

type ResultColumns = [
  number,
  number,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  number | null,
  string | null,
  ClaimStep | null,
  number | null,
  number | null,
  string | null,
  string | null,
  string | null,
];

/** A journal database's result records, lazily; ending the iteration early ends the statement. */
export function* readResultRecords(database: JournalDatabase): Generator<ResultRecord> {
  for (const columns of database
    .prepare(resultsQuery(changedFieldsColumn(database)))
    .raw()
    .iterate() as IterableIterator<ResultColumns>)
    yield recordOf(columns);
}

/** One row's result record by its place in the input (`idx`), as `readResultRecords` reads it: `review` shows any row on demand. */
export function readResultRecordAt(database: JournalDatabase, idx: number): ResultRecord | undefined {
  const columns = database
    .prepare(resultsQuery(changedFieldsColumn(database), 'WHERE r.idx = ?'))
    .raw()
    .get(idx) as ResultColumns | undefined;
  return columns === undefined ? undefined : recordOf(columns);
}

function recordOf(columns: ResultColumns): ResultRecord {
  const [
    idx,
    line,
    source,
    claim_key,
    case_id,
    file_ids,
    changed_fields,
    outcome,
    error_code,
    error_message,
    error_field,
    http_status,
    claim_id,
    step,
    attempts,
    claim_http_status,
    claim_error_code,
    claim_error_message,
    claim_error_field,
  ] = columns;
  return {
    idx,
    line,
    source,
    claim_key,
    case_id,
    file_ids,
    changed_fields,
    outcome,
    error_code,
    error_message,
    error_field,
    http_status,
    claim_id,
    step,
    attempts,
    claim_http_status,
    claim_error_code,
    claim_error_message,
    claim_error_field,
  };
}

const changedFieldsColumn = (database: JournalDatabase) => (hasChangedFields(database) ? 'r.changed_fields' : 'NULL');

/**
 * A journal made before `changed_fields` gets the column when a run opens it; `report` and
 * `merge-results` read a private copy that no run has opened, so they read none instead.
 */
function hasChangedFields(database: JournalDatabase): boolean {
  return (database.prepare('PRAGMA table_info(rows)').all() as { name: string }[]).some(
    (column) => column.name === 'changed_fields',
  );
}
