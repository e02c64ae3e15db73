import type Database from 'better-sqlite3';

/**
 * Which job made a journal, told by its tables (every job's journal is one SQLite file with a
 * `meta` table and tables of its own): the one check the report, merge-results, withdraw's and
 * track's sources and the review make before reading a journal they did not write. Here, on the
 * floor of the journals themselves, because the copy made for reading asks it too
 * (results-copy.ts).
 */
export type JournalKind = 'import' | 'migrate-v1' | 'withdraw' | 'track';

/** The tables of a SQLite database. */
export function tablesOf(database: Database.Database): Set<string> {
  return new Set(database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
}

/** The job whose journal has these tables, or undefined when no job's journal has them. */
export function journalKindOf(tables: ReadonlySet<string>): JournalKind | undefined {
  if (!tables.has('meta')) return undefined;
  if (tables.has('rows') && tables.has('claims')) return 'import';
  if (tables.has('cases')) return 'migrate-v1';
  if (tables.has('withdraw_targets') && tables.has('withdraw_lines')) return 'withdraw';
  if (tables.has('track_rows') && tables.has('track_cases')) return 'track';
  return undefined;
}
