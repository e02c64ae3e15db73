import { readJournalInOneRead } from '../job-files/read/journal-in-one-read.js';
import Database from 'better-sqlite3';
import type { ServiceIdentity } from '../api/service-identity.js';
import type { WrittenDialect } from '../csv/layout.js';
import { migratedClaimId } from '../job-files/migrate/group.js';
import { expectMigrateJournal, migrateRowsOf } from '../job-files/migrate/journal.js';
import { migrateOutcomeOf } from '../job-files/migrate/columns.js';
import { importJournalTargets } from './import-journal-source.js';
import { sourceError, sourceKinds } from '../job-files/read/source-error.js';
import { claimKeyWanted, outcomeWanted, type TargetFilter } from '../job-files/read/target-filter.js';
import type { WithdrawTarget } from '../job-files/withdraw/target.js';
import { journalKindOf, tablesOf } from '../journal/kind.js';
import { expectImportJournal, importMetaOf } from '../job-files/import/meta.js';
import { migrateMetaOf } from '../job-files/migrate/meta.js';
import { recordedService } from '../journal/service-binding.js';

export interface JournalRead {
  readonly kind: 'import-journal' | 'migrate-journal';
  /** The service the journal recorded: the run refuses a journal of another service. */
  readonly service: ServiceIdentity | undefined;
  readonly targets: WithdrawTarget[];
  /** An import journal's results dialect, when it recorded one: the withdrawal's results follow it. */
  readonly dialect?: WrittenDialect | undefined;
}

/**
 * The claims a job journal names, told apart by its tables as `report` tells them.
 *
 * Read in one read transaction on the journal itself, not through `report`'s private copy
 * (snapshotOf): that copy leaves out the mapped cases and the claims' card, which are the proof the
 * run needs. The transaction is as short as a copy, holds no lock once read, and fails with
 * SQLITE_BUSY while a run holds the journal: a job still running is not taken back
 * (`JournalBusyError`, exit 3: run it again when the job ends).
 */
export function readJournalSource(file: string, filter: TargetFilter, seenKeys: Set<string>): JournalRead {
  return readJournalInOneRead(file, withdrawWords, (database) => readTables(file, database, filter, seenKeys));
}

function readTables(
  file: string,
  database: Database.Database,
  filter: TargetFilter,
  seenKeys: Set<string>,
): JournalRead {
  const tables = tablesOf(database);
  const service = () => recordedService(database, file);
  const kind = journalKindOf(tables);
  if (kind === 'import') {
    const meta = importMetaOf(database, file);
    expectImportJournal(meta);
    return {
      kind: 'import-journal',
      service: service(),
      targets: importJournalTargets(database, filter, seenKeys),
      dialect: meta.get('results_dialect'),
    };
  }
  if (kind === 'migrate-v1') {
    expectMigrateJournal(migrateMetaOf(database, file));
    return { kind: 'migrate-journal', service: service(), targets: migrateJournalTargets(database, filter, seenKeys) };
  }
  const found = tables.size === 0 ? 'no tables' : `the tables ${[...tables].join(', ')}`;
  throw sourceError(file, `expected ${sourceKinds}, got a SQLite database with ${found}`);
}

/**
 * The claims a migration may have created: its groups that migrated, or whose create may have
 * committed unanswered (`submitting`; `failed`, which the next run would settle by a retrieve). A
 * case `skipped` stayed in the claim it already had: never named, nor its claim. The proof is the
 * group's cases: the claim at the service must hold those and no other.
 */
export function migrateJournalTargets(
  database: Database.Database,
  filter: TargetFilter,
  seenKeys: Set<string>,
): WithdrawTarget[] {
  const groups = new Map<string, { target: WithdrawTarget; proof: string[]; named: boolean }>();
  for (const row of migrateRowsOf(database)) {
    if (!['migrated', 'submitting', 'failed'].includes(row.step)) continue;
    let group = groups.get(row.group_key);
    if (group === undefined) {
      const claimId = row.claim_id === '' ? migratedClaimId(row.group_key) : row.claim_id;
      const proof: string[] = [];
      group = {
        target: { claimId, claimKey: row.group_key, caseIds: [], proof: { kind: 'migrate', caseIds: proof } },
        proof,
        named: false,
      };
      groups.set(row.group_key, group);
    }
    group.proof.push(row.case_id);
    if (!outcomeWanted(migrateOutcomeOf(row).outcome, filter)) continue;
    group.named = true;
    group.target.caseIds.push(row.case_id);
  }
  const named = [...groups.values()].filter((group) => {
    // The key is found whatever --outcome leaves of its claim (unmatchedClaimKeys).
    const wanted = claimKeyWanted([group.target.claimKey], filter, seenKeys);
    return wanted && group.named;
  });
  return named.map((group) => group.target);
}

/** What went wrong reading a journal, as the run must tell it: busy (exit 3), or a source that is no journal (exit 2). */
const withdrawWords = {
  busy: 'expected no run using it, got one (withdraw when the run ends)',
  expected: sourceKinds,
};
