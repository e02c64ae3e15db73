import { rm } from 'node:fs/promises';
import { expectMigrateJournal, migrateRowsOf } from '../job-files/migrate/journal.js';
import { migrateMetaOf } from '../job-files/migrate/meta.js';
import { snapshotOf } from '../journal/snapshot.js';
import { migrateRowLine, serviceOf } from '../job-files/read/read-journal.js';
import { Summariser } from '../job-files/summarise.js';
import { readOnlyLines, type MigrateReviewJob, type RowEntry } from './job-types.js';

/** What a migrated case's row shows. */
const caseColumns = ['case_id', 'group_key', 'claim_id', 'attempts', 'http_status'] as const;

/**
 * A migrate-v1 journal under review: every v1 case, its outcome and error, as `report` reads
 * them (`migrateOutcomeOf`, `migrateLine`). Read from a private copy, then closed: a migration's
 * cases are few and small, so all are kept.
 */
export async function openMigrateJob(file: string): Promise<MigrateReviewJob> {
  const { database, folder } = await snapshotOf(file);
  try {
    const meta = migrateMetaOf(database, file);
    expectMigrateJournal(meta);
    const settings = meta.get('settings');
    const service = serviceOf(meta.get('service'), settings?.dryRun === true);
    const summariser = new Summariser();
    const entries: RowEntry[] = [];
    const cells = new Map<number, Record<string, string>>();
    let position = 0;
    for (const row of migrateRowsOf(database)) {
      const line = migrateRowLine(++position, row);
      const { outcome, errorCode: code, errorMessage: message } = line;
      summariser.add(line);
      entries.push({
        line: position,
        shard: 0,
        idx: row.idx,
        outcome,
        errorCode: code,
        errorMessage: message,
        errorField: '',
        claimKey: line.claimKey,
        claimId: row.claim_id,
        caseId: row.case_id,
        toFix: outcome === 'failed' || outcome === 'rejected',
      });
      cells.set(position, {
        case_id: row.case_id,
        group_key: row.group_key,
        claim_id: row.claim_id,
        attempts: String(row.attempts),
        http_status: row.http_status === null ? '' : String(row.http_status),
      });
    }
    return {
      kind: 'migrate-v1',
      journals: [file],
      journal: file,
      service,
      columns: caseColumns,
      ...readOnlyLines(entries, cells, summariser),
      fixOutcomes: ['failed', 'rejected'],
      retryNote:
        "A migration's cases are read from the service: nothing to edit here.\nRetry the failed cases (a rejected case: fix it on the service first):",
      retryCommand:
        `bulk-disputes migrate-v1 --journal ${file}` +
        (settings !== undefined && settings.groupBy.length > 0 ? ` --group-by ${settings.groupBy.join(',')}` : '') +
        (settings?.dryRun === true ? ' --dry-run' : ''),
      close: async () => undefined,
    };
  } finally {
    database.close();
    await rm(folder, { recursive: true, force: true });
  }
}
