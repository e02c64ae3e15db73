import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describeService, parseService } from '../api/service-identity.js';
import { JournalBusyError, journalFormat } from '../import/journal/schema.js';
import { serviceMetaKey } from '../import/journal/service-binding.js';
import { readResultRecords, type ResultRecord } from '../import/journal/journal.js';
import { copyForReading } from '../import/journal/results-copy.js';
import { rowResult } from '../import/results/row-outcome.js';
import { displayKey } from '../import/results/write-results.js';
import { okOutcomes } from '../import/results/columns.js';
import { migrateJournalFormat, type MigrateRow } from '../migrate/journal.js';
import { migrateOutcomeOf } from '../migrate/results.js';
import { WithdrawJournal, withdrawJournalFormat } from '../withdraw/journal.js';
import { linesWithUnsettled } from '../withdraw/journal.js';
import { migrateLine, NotResultsError, withdrawLine, type ResultLine } from './read-results.js';

/**
 * The lines a job journal (an import's, migrate-v1's or withdraw's) would write to its results
 * file, read straight from the journal: the same `rowResult`, `migrateOutcomeOf` and
 * `linesWithUnsettled` that write the results, so the two cannot disagree. Useful when the results
 * file was lost, or a run was killed before writing it: a claim the run never finished shows as
 * `failed` / `not_finished`.
 */
export async function* readJournal(file: string, onService?: (service: string) => void): AsyncGenerator<ResultLine> {
  const { database, folder } = await snapshotOf(file);
  try {
    const tables = new Set((database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((row) => row.name));
    if (tables.has('meta') && tables.has('rows') && tables.has('claims')) {
      expectFormat(database, 'format', journalFormat, 'an import journal');
      expectStaged(database, '1');
      onService?.(serviceOf(database));
      for (const record of readResultRecords(database)) yield importLine(record);
    } else if (tables.has('meta') && tables.has('cases')) {
      expectMigrateFormat(database);
      expectStaged(database, 'complete');
      onService?.(serviceOf(database));
      let position = 0;
      for (const row of database.prepare('SELECT * FROM cases ORDER BY idx').iterate() as IterableIterator<MigrateRow>) {
        const { outcome, code, message } = migrateOutcomeOf(row);
        yield migrateLine(++position, { caseId: row.case_id, claimId: row.claim_id, groupKey: row.group_key, outcome, errorCode: code, errorMessage: message });
      }
    } else if (tables.has('meta') && tables.has('withdraw_targets') && tables.has('withdraw_lines')) {
      expectJsonFormat(database, 'fingerprint', withdrawJournalFormat, 'a withdraw journal');
      expectStaged(database, '1');
      onService?.(serviceOf(database));
      // The copy is read by withdraw's own journal code, which opens it alone.
      database.close();
      yield* withdrawJournalLines(database.name);
    } else {
      throw new NotResultsError(`expected an import, migrate-v1 or withdraw journal (tables meta, rows and claims; meta and cases; or meta, withdraw_targets and withdraw_lines), got a SQLite database with ${describeTables(tables)}`);
    }
  } finally {
    if (database.open) database.close();
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * A withdraw job's lines (issue 28) as withdraw writes its results, by its own code on the private
 * copy: each target's settled lines, and `failed` / `not_finished` for one a stopped run did not settle.
 */
function* withdrawJournalLines(copy: string): Generator<ResultLine> {
  const journal = new WithdrawJournal(copy);
  try {
    let position = 0;
    for (const line of linesWithUnsettled(journal)) yield withdrawLine(++position, line);
  } finally {
    journal.close();
  }
}

/** Which service the journal belongs to (issue 19), for a person. */
export function serviceOf(database: Database.Database): string {
  const meta = metaOf(database);
  const service = parseService(meta(serviceMetaKey));
  if (service !== undefined) return describeService(service);
  const dryRun = (JSON.parse(meta('fingerprint') ?? '{}') as { dryRun?: unknown }).dryRun === true;
  return dryRun ? 'none (a dry run)' : 'not recorded (a journal made before journals recorded their service)';
}

const describeTables = (tables: ReadonlySet<string>) => (tables.size === 0 ? 'no tables' : [...tables].join(', '));

export function importLine(record: ResultRecord): ResultLine {
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
    // `created` with `not_finished` (a killed run's claim awaiting its filing) is not done.
    ok: okOutcomes.includes(result.outcome) && result.errorCode === '',
  };
}

/**
 * A private copy of the journal, read in place of the job's own. A connection kept open while
 * the report reads would hold a shared lock, and a run starting meanwhile would stop with
 * JOURNAL_BUSY; the copy is made in one short read transaction instead (`copyForReading`), and
 * fails with SQLITE_BUSY while a run holds the journal. The copy is a temporary file in a folder
 * of its own (0700), removed when the reading ends.
 */
export async function snapshotOf(file: string): Promise<{ database: Database.Database; folder: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'bulk-disputes-report-'));
  const copy = join(folder, 'journal.sqlite');
  try {
    copyForReading(file, copy);
    const database = new Database(copy, { fileMustExist: true });
    database.pragma('query_only = ON');
    return { database, folder };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      throw new JournalBusyError(`journal ${file}: expected no run using it, got one (report on it when the run ends)`, { cause: error });
    }
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') throw new NotResultsError('expected a results CSV or a journal, got a damaged SQLite file', { cause: error });
    throw error;
  }
}

/** A journal's `meta` values by key (an import's, migrate-v1's or withdraw's: each keeps one such table). */
export function metaOf(database: Database.Database): (key: string) => string | undefined {
  const statement = database.prepare('SELECT value FROM meta WHERE key = ?');
  return (key) => (statement.get(key) as { value: string } | undefined)?.value;
}

/** A journal whose staging did not finish holds only part of the input: its report would mislead. */
export function expectStaged(database: Database.Database, complete: string): void {
  const staged = metaOf(database)('staged');
  if (staged !== complete) throw new NotResultsError('expected a journal whose staging finished, got one stopped while reading its input (run the job again: it stages from the start)');
}

export function expectFormat(database: Database.Database, key: string, expected: string, what: string): void {
  const recorded = metaOf(database)(key);
  if (recorded !== expected) throw new NotResultsError(`expected ${what} of format ${expected}, got ${recorded === undefined ? 'none recorded' : `format ${recorded}`}`);
}

/** migrate-v1 records its format inside the `settings` JSON. */
export function expectMigrateFormat(database: Database.Database): void {
  expectJsonFormat(database, 'settings', migrateJournalFormat, 'a migrate-v1 journal');
}

/** A journal whose format is the `format` of a JSON meta value (migrate-v1's `settings`, withdraw's `fingerprint`). */
export function expectJsonFormat(database: Database.Database, key: string, expected: string, what: string): void {
  const value = metaOf(database)(key);
  let recorded: unknown;
  try {
    recorded = value === undefined ? undefined : (JSON.parse(value) as { format?: unknown }).format;
  } catch {
    recorded = 'unreadable';
  }
  if (recorded !== expected) {
    throw new NotResultsError(`expected ${what} of format ${expected}, got ${recorded === undefined ? 'none recorded' : `format ${JSON.stringify(recorded)}`}`);
  }
}
