import { rm } from 'node:fs/promises';
import { maskCardNumbers } from '../../card-numbers/mask.js';
import { describeService, type ServiceIdentity } from '../../api/service-identity.js';
import { expectImportJournal, importMetaOf } from '../import/meta.js';
import { migrateMetaOf } from '../migrate/meta.js';
import { expectWithdrawJournal, withdrawMetaOf } from '../withdraw/meta.js';
import { readResultRecords } from '../import/result-records.js';
import type { ResultRecord } from '../import/records.js';
import { snapshotOf } from '../../journal/snapshot.js';
import type { Thinned } from '../../journal/retention-meta.js';
import { NotResultsError } from '../../files/not-results-error.js';
import { rowResult } from '../import/row-outcome.js';
import { displayKey } from '../import/write-results.js';
import { isOkResult } from '../import/columns.js';
import { expectMigrateJournal, migrateRowsOf, type MigrateRow } from '../migrate/journal.js';
import { migrateOutcomeOf } from '../migrate/columns.js';
import { linesWithUnsettled, WithdrawJournal, withdrawJournalFormat } from '../withdraw/journal.js';
import { migrateLine, withdrawLine, type ResultLine } from './read-results.js';
import { journalKindOf, tablesOf } from '../../journal/kind.js';

/**
 * The lines a job journal (an import's, migrate-v1's or withdraw's) would write to its results
 * file, read straight from the journal: the same `rowResult`, `migrateOutcomeOf` and
 * `linesWithUnsettled` that write the results, so the two cannot disagree. Useful when the results
 * file was lost, or a run was killed before writing it: a claim the run never finished shows as
 * `failed` / `not_finished`.
 */
export async function* readJournal(
  file: string,
  onService?: (service: string) => void,
  onThinned?: (thinned: Thinned) => void,
): AsyncGenerator<ResultLine> {
  const { database, folder } = await snapshotOf(file);
  try {
    const tables = tablesOf(database);
    const kind = journalKindOf(tables);
    if (kind === 'import') {
      const meta = importMetaOf(database, file);
      expectImportJournal(meta);
      onService?.(serviceOf(meta.get('service'), meta.get('fingerprint')?.dryRun === true));
      // Its lines need none of what prune removed: a report of a thinned journal reads as before.
      const thinned = meta.get('thinned');
      if (thinned !== undefined) onThinned?.(thinned);
      for (const record of readResultRecords(database)) yield importLine(record);
    } else if (kind === 'migrate-v1') {
      const meta = migrateMetaOf(database, file);
      expectMigrateJournal(meta);
      onService?.(serviceOf(meta.get('service'), meta.get('settings')?.dryRun === true));
      let position = 0;
      for (const row of migrateRowsOf(database)) yield migrateRowLine(++position, row);
    } else if (kind === 'withdraw') {
      const meta = withdrawMetaOf(database, file);
      expectWithdrawJournal(meta, withdrawJournalFormat);
      onService?.(serviceOf(meta.get('service'), meta.get('fingerprint')?.dryRun === true));
      // The copy is read by withdraw's own journal code, which opens it alone.
      database.close();
      yield* withdrawJournalLines(database.name);
    } else {
      throw new NotResultsError(
        `expected an import, migrate-v1, withdraw or track journal (tables meta, rows and claims; meta and ` +
          `cases; meta, withdraw_targets and withdraw_lines; or meta, track_rows and track_cases), got a SQLite ` +
          `database with ${describeTables(tables)}`,
      );
    }
  } finally {
    if (database.open) database.close();
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * A withdraw job's lines as withdraw writes its results, by its own code on the private copy: each
 * target's settled lines, and `failed` / `not_finished` for one a stopped run did not settle.
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

/** Which service the journal belongs to, for a person. */
export function serviceOf(service: ServiceIdentity | undefined, dryRun: boolean): string {
  if (service !== undefined) return describeService(service);
  return dryRun ? 'none (a dry run)' : 'not recorded (a journal made before journals recorded their service)';
}

const describeTables = (tables: ReadonlySet<string>) => (tables.size === 0 ? 'no tables' : [...tables].join(', '));

/** A journal's row as a results line; its key and message masked, as a journal of a version before masking may hold card numbers. */
export function importLine(record: ResultRecord): ResultLine {
  const result = rowResult(record);
  return {
    kind: 'result',
    line: String(record.line),
    claimKey: record.claim_key === null ? '' : maskCardNumbers(displayKey(record.claim_key)),
    claimId: record.claim_id ?? '',
    caseId: record.case_id ?? '',
    outcome: result.outcome,
    errorCode: result.errorCode,
    errorMessage: maskCardNumbers(result.errorMessage),
    errorField: result.errorField,
    // `created` with `not_finished` (a killed run's claim awaiting its filing) is not done; a row set aside is.
    ok: isOkResult(result.outcome, result.errorCode),
  };
}

/** One v1 case of a migration's journal as a results line (its outcome as the results file would say it). */
export function migrateRowLine(position: number, row: MigrateRow): ResultLine {
  const { outcome, code, message } = migrateOutcomeOf(row);
  return migrateLine(position, {
    caseId: row.case_id,
    claimId: row.claim_id,
    groupKey: maskCardNumbers(row.group_key),
    outcome,
    errorCode: code,
    errorMessage: maskCardNumbers(message),
  });
}
