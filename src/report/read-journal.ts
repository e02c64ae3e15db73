import Database from 'better-sqlite3';
import { JournalBusyError, journalFormat } from '../import/journal/schema.js';
import { resultsQuery, type ResultRecord } from '../import/journal/journal.js';
import { rowResult } from '../import/results/row-outcome.js';
import { displayKey } from '../import/results/write-results.js';
import { okOutcomes } from '../import/results/columns.js';
import { migrateJournalFormat, type MigrateRow } from '../migrate/journal.js';
import { migrateOutcomeOf } from '../migrate/results.js';
import { migrateLine, NotResultsError, type ResultLine } from './read-results.js';

/**
 * The lines a job journal (an import's or migrate-v1's) would write to its results CSV, read
 * straight from the journal: the same `rowResult` and `migrateOutcomeOf` that write the CSV, so
 * the two cannot disagree. Useful when the results CSV was lost, or a run was killed before
 * writing it: a claim the run never finished shows as `failed` / `not_finished`.
 */
export function* readJournal(file: string): Generator<ResultLine> {
  const database = openForReading(file);
  try {
    const tables = new Set((database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((row) => row.name));
    if (tables.has('rows') && tables.has('claims')) {
      expectFormat(database, 'format', journalFormat, 'an import journal');
      for (const record of database.prepare(resultsQuery).iterate() as IterableIterator<ResultRecord>) yield importLine(record);
    } else if (tables.has('cases')) {
      expectMigrateFormat(database);
      let position = 0;
      for (const row of database.prepare('SELECT * FROM cases ORDER BY idx').iterate() as IterableIterator<MigrateRow>) {
        const { outcome, code, message } = migrateOutcomeOf(row);
        yield migrateLine(++position, { caseId: row.case_id, claimId: row.claim_id, groupKey: row.group_key, outcome, errorCode: code, errorMessage: message });
      }
    } else {
      throw new NotResultsError(`expected an import or migrate-v1 journal (tables rows and claims, or cases), got a SQLite database with ${tables.size === 0 ? 'no tables' : [...tables].join(', ')}`);
    }
  } finally {
    database.close();
  }
}

function importLine(record: ResultRecord): ResultLine {
  const result = rowResult(record);
  return {
    kind: 'result',
    line: String(record.line),
    claimKey: record.claim_key === null ? '' : displayKey(record.claim_key),
    claimId: record.claim_id ?? '',
    caseId: record.case_id ?? '',
    outcome: result.outcome,
    errorCode: result.errorCode,
    errorMessage: result.errorMessage,
    errorField: result.errorField,
    ok: okOutcomes.includes(result.outcome),
  };
}

/**
 * Read-write but query-only: a journal left by a killed run has a WAL to recover, which a
 * read-only connection cannot do; `query_only` still guarantees the report changes nothing. A run
 * holding the journal (its exclusive lock) makes the first read fail with SQLITE_BUSY.
 */
function openForReading(file: string): Database.Database {
  const database = new Database(file, { fileMustExist: true, timeout: 1000 });
  try {
    database.pragma('query_only = ON');
    database.prepare('SELECT count(*) FROM sqlite_master').get();
    return database;
  } catch (error) {
    database.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new JournalBusyError(`journal ${file}: expected no run using it, got one (report on it when the run ends)`, { cause: error });
    }
    if ((error as { code?: string }).code === 'SQLITE_NOTADB') throw new NotResultsError('expected a results CSV or a journal, got a damaged SQLite file');
    throw error;
  }
}

function expectFormat(database: Database.Database, key: string, expected: string, what: string): void {
  const recorded = (database.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  if (recorded !== expected) throw new NotResultsError(`expected ${what} of format ${expected}, got ${recorded === undefined ? 'none recorded' : `format ${recorded}`}`);
}

/** migrate-v1 records its format inside the `settings` JSON. */
function expectMigrateFormat(database: Database.Database): void {
  const settings = (database.prepare("SELECT value FROM meta WHERE key = 'settings'").get() as { value: string } | undefined)?.value;
  const recorded = settings === undefined ? undefined : (JSON.parse(settings) as { format?: unknown }).format;
  if (recorded !== migrateJournalFormat) {
    throw new NotResultsError(`expected a migrate-v1 journal of format ${migrateJournalFormat}, got ${recorded === undefined ? 'none recorded' : `format ${JSON.stringify(recorded)}`}`);
  }
}
