import { validationError } from '../http/errors.js';
import type { SandboxDatabase } from './database.js';

/**
 * Lists page newest first (docs/interface.md): `limit` 1..100, default 10; `starting_after` gives
 * the page of older records after that id, `ending_before` the page of newer records before it; the
 * two are mutually exclusive. Cursors anchor on the row's `seq`, so a page never shifts when
 * records are added while a client walks the list.
 */
export interface PageRequest {
  limit: number;
  startingAfter?: string | undefined;
  endingBefore?: string | undefined;
}

export interface Page<Row> {
  rows: Row[];
  hasMore: boolean;
}

export function readPageRequest(query: URLSearchParams): PageRequest {
  const limitText = query.get('limit');
  let limit = 10;
  if (limitText !== null) {
    limit = /^\d+$/.test(limitText) ? Number(limitText) : Number.NaN;
    if (!(limit >= 1 && limit <= 100))
      throw invalidParameter('limit', `expected an integer from 1 to 100, got ${JSON.stringify(limitText)}`);
  }
  const startingAfter = query.get('starting_after') ?? undefined;
  const endingBefore = query.get('ending_before') ?? undefined;
  if (startingAfter !== undefined && endingBefore !== undefined) {
    throw invalidParameter('ending_before', 'expected starting_after or ending_before, not both');
  }
  return { limit, startingAfter, endingBefore };
}

export interface PageQuery {
  /** Internal constants only: table and id column names are never taken from a request. */
  table: 'claims' | 'cases' | 'events' | 'files';
  idColumn: 'claim_id' | 'case_id' | 'event_id' | 'file_id';
  /** Extra SQL conditions on top of the environment, with their parameters. */
  where?: string;
  params?: unknown[];
}

export function pageOf<Row>(
  database: SandboxDatabase,
  environment: string,
  query: PageQuery,
  request: PageRequest,
): Page<Row> {
  // `+environment`: the page is read along `seq` (the table's rowid), newest first, skipping the
  // other environment's rows. Left to itself SQLite used an index on (environment, claim_id) and
  // sorted the environment's every row for each page: 150 ms a page at 100,000 cases, 0.2 ms
  // along the rowid. An index on (environment, seq) would cost every insert a b-tree more.
  const filter = `+environment = ?${query.where ? ` AND ${query.where}` : ''}`;
  const params = [environment, ...(query.params ?? [])];
  const fetch = request.limit + 1;
  let rows: Row[];
  if (request.endingBefore !== undefined) {
    const anchor = cursorSeq(database, environment, query, 'ending_before', request.endingBefore);
    const sql = `SELECT * FROM ${query.table} WHERE ${filter} AND seq > ? ORDER BY seq ASC LIMIT ?`;
    rows = (database.prepare(sql).all(...params, anchor, fetch) as Row[]).reverse();
    // Newer records beyond this page are at its start once reversed.
    const hasMore = rows.length > request.limit;
    return { rows: hasMore ? rows.slice(1) : rows, hasMore };
  }
  const anchor =
    request.startingAfter === undefined
      ? Number.MAX_SAFE_INTEGER
      : cursorSeq(database, environment, query, 'starting_after', request.startingAfter);
  const sql = `SELECT * FROM ${query.table} WHERE ${filter} AND seq < ? ORDER BY seq DESC LIMIT ?`;
  rows = database.prepare(sql).all(...params, anchor, fetch) as Row[];
  const hasMore = rows.length > request.limit;
  return { rows: hasMore ? rows.slice(0, request.limit) : rows, hasMore };
}

function cursorSeq(
  database: SandboxDatabase,
  environment: string,
  query: PageQuery,
  field: string,
  id: string,
): number {
  const row = (database
    .prepare(`SELECT seq FROM ${query.table} WHERE environment = ? AND ${query.idColumn} = ?`)
    .get(environment, id) ??
    (query.table === 'cases'
      ? database
          .prepare('SELECT seq FROM deleted_cases WHERE environment = ? AND case_id = ? ORDER BY seq DESC')
          .get(environment, id)
      : undefined)) as { seq: number } | undefined;
  if (!row) throw invalidParameter(field, `expected the id of an existing record, got ${JSON.stringify(id)}`);
  return row.seq;
}

function invalidParameter(field: string, message: string) {
  return validationError(`invalid query parameter ${field}`, [
    { code: 'parameter_invalid', details: { field }, message: `${field}: ${message}` },
  ]);
}
