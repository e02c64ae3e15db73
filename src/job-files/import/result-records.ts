import type { JournalDatabase } from '../../journal/open.js';
import { arrayRecords } from './array-records.js';
import type { ResultRecord } from './records.js';

/** What the SELECT reads for each name of the record, in its order: the row's columns, then its claim's. */
const resultColumnSql = {
  idx: 'r.idx',
  line: 'r.line',
  source: 'r.source',
  claim_key: 'r.claim_key',
  case_id: 'r.case_id',
  file_ids: 'r.file_ids',
  changed_fields: 'r.changed_fields',
  warnings: 'r.warnings',
  outcome: 'r.outcome',
  error_code: 'r.error_code',
  error_message: 'r.error_message',
  error_field: 'r.error_field',
  http_status: 'r.http_status',
  claim_id: 'c.claim_id',
  step: 'c.step',
  attempts: 'c.attempts',
  claim_http_status: 'c.http_status',
  claim_error_code: 'c.error_code',
  claim_error_message: 'c.error_message',
  claim_error_field: 'c.error_field',
} satisfies { readonly [Name in keyof ResultRecord]: string };

/**
 * Every row with its claim, in input order: the results CSV's source (and the report's and
 * merge-results', reading a journal). Only the columns the results read (not the mapped case and
 * evidence, as long as the source), read as arrays and named in one object literal: a re-run of a
 * finished 100,000-row import read them in 0.3 s instead of 0.65 s as better-sqlite3's objects of
 * every column.
 */
const resultsQuery = (database: JournalDatabase, where = '', more: Record<string, string> = {}) =>
  `SELECT ${Object.values({ ...resultColumnSql, ...absentColumns(database), ...more }).join(', ')}
FROM rows r LEFT JOIN claims c ON c.claim_key = r.claim_key ${where} ORDER BY r.idx`;

const { recordOf } = arrayRecords<ResultRecord>()(Object.keys(resultColumnSql) as (keyof ResultRecord)[]);

/** A result record with the digest of the cells its row was staged with (src/staging/dispute-identity.ts). */
export type DigestedResultRecord = ResultRecord & { same_row: string | null };

const digested = arrayRecords<DigestedResultRecord>()([
  ...(Object.keys(resultColumnSql) as (keyof ResultRecord)[]),
  'same_row',
]);

/** A journal database's result records, lazily; ending the iteration early ends the statement. */
export function* readResultRecords(database: JournalDatabase): Generator<ResultRecord> {
  for (const columns of database.prepare(resultsQuery(database)).raw().iterate() as IterableIterator<unknown[]>)
    yield recordOf(columns);
}

/**
 * The same records with each row's `same_row` digest: what the results of a thinned journal check
 * the cells read again from the input against (src/import/thinned). A column more than the
 * ordinary results read, so a query of its own.
 */
export function* readDigestedResultRecords(database: JournalDatabase): Generator<DigestedResultRecord> {
  const query = resultsQuery(database, '', { same_row: 'r.same_row' });
  for (const columns of database.prepare(query).raw().iterate() as IterableIterator<unknown[]>)
    yield digested.recordOf(columns);
}

/**
 * The result records after `afterIdx` through `throughIdx`, at most `limit`, in input order: the
 * results read page by page while claims are still sent (src/import/settled-results.ts), each page
 * one statement run to its end, so that the sending's writes come between pages, never inside one.
 */
export function resultRecordPages(
  database: JournalDatabase,
): (afterIdx: number, throughIdx: number, limit: number) => ResultRecord[] {
  const page = database.prepare(`${resultsQuery(database, 'WHERE r.idx > ? AND r.idx <= ?')} LIMIT ?`).raw();
  return (afterIdx, throughIdx, limit) =>
    (page.all(afterIdx, throughIdx, limit) as unknown[][]).map((columns) => recordOf(columns));
}

/** One row's result record by its place in the input (`idx`), as `readResultRecords` reads it: `review` shows any row on demand. */
export function readResultRecordAt(database: JournalDatabase, idx: number): ResultRecord | undefined {
  const columns = database.prepare(resultsQuery(database, 'WHERE r.idx = ?')).raw().get(idx) as unknown[] | undefined;
  return columns === undefined ? undefined : recordOf(columns);
}

/** Row columns added since format 2 was first written, which the results read. */
const addedRowColumns = ['changed_fields', 'warnings'] as const;

/**
 * A journal made before a column gets it when a run opens it; `report` and `merge-results` read a
 * private copy that no run has opened, so they read none (NULL) instead.
 */
function absentColumns(database: JournalDatabase): Partial<Record<(typeof addedRowColumns)[number], string>> {
  const present = new Set(
    (database.prepare('PRAGMA table_info(rows)').all() as { name: string }[]).map((column) => column.name),
  );
  return Object.fromEntries(addedRowColumns.filter((name) => !present.has(name)).map((name) => [name, 'NULL']));
}
