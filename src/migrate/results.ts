import { writeCsvFile } from '../csv/write-csv-file.js';
import type { MigrateJournal } from '../job-files/migrate/journal.js';
import {
  migrateColumns,
  migrateOutcomeFills,
  migrateOutcomeOf,
  type MigrateOutcome,
} from '../job-files/migrate/columns.js';
import { isWorkbookFile } from '../workbook/read-rows.js';
import { writeSheet, type SheetLine } from '../workbook/write-sheet.js';
import type { MigratePlan } from './plan.js';

export interface MigrateSummary {
  cases: number;
  byOutcome: Record<MigrateOutcome, number>;
  claims: number;
  allOk: boolean;
}

/**
 * One line per v1 case in listing order, written to a temp file and renamed: a CSV of neutralised
 * cells, or (a name ending in .xlsx) a workbook of text cells, the outcome coloured.
 */
export async function writeMigrateResults(journal: MigrateJournal, file: string): Promise<MigrateSummary> {
  const summary: MigrateSummary = {
    cases: 0,
    byOutcome: { migrated: 0, skipped: 0, failed: 0, rejected: 0, valid: 0 },
    claims: 0,
    allOk: true,
  };
  const claims = new Set<string>();
  const lines = function* (): Generator<SheetLine> {
    for (const row of journal.rows()) {
      const { outcome, code, message } = migrateOutcomeOf(row);
      summary.cases++;
      summary.byOutcome[outcome]++;
      if (outcome === 'failed' || outcome === 'rejected') summary.allOk = false;
      if (outcome !== 'skipped') claims.add(row.claim_id);
      const cells = [
        row.case_id,
        row.claim_id,
        row.group_key,
        outcome,
        code,
        message,
        row.http_status === null ? '' : String(row.http_status),
      ];
      yield { cells, marks: new Map([[outcomeColumn, { fill: migrateOutcomeFills[outcome] }]]) };
    }
  };
  if (isWorkbookFile(file))
    await writeSheet(
      file,
      { sheetName: 'migrate-v1', header: migrateColumns, widths: [20, 20, 30, 11, 24, 60, 8] },
      lines(),
    );
  else await writeCsvFile(file, migrateColumns, lines());
  summary.claims = claims.size;
  return summary;
}

const outcomeColumn = migrateColumns.indexOf('outcome');

/** The line that proves nothing was lost: source = migrated + skipped + failed + rejected. */
export function formatMigrateSummary(summary: MigrateSummary, mode: MigratePlan['mode']): string {
  const done = mode.kind === 'check' ? `${summary.byOutcome.valid} valid` : `${summary.byOutcome.migrated} migrated`;
  return (
    `migrate-v1 finished: ${summary.cases} v1 cases = ${done} + ${summary.byOutcome.skipped} skipped + ` +
    `${summary.byOutcome.failed} failed + ${summary.byOutcome.rejected} rejected (${summary.claims} ` +
    `claims)\n`
  );
}
