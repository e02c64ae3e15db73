import { writeCsvFile } from '../import/results/write-csv-file.js';
import type { MigrateJournal, MigrateRow } from './journal.js';
import { isWorkbookFile } from '../workbook/read-rows.js';
import { writeSheet, type SheetLine } from '../workbook/write-sheet.js';

export const migrateColumns = [
  'case_id',
  'claim_id',
  'group_key',
  'outcome',
  'error_code',
  'error_message',
  'http_status',
] as const;
export const migrateOutcomes = ['migrated', 'skipped', 'failed', 'rejected', 'valid'] as const;
export type MigrateOutcome = (typeof migrateOutcomes)[number];

export interface MigrateSummary {
  cases: number;
  byOutcome: Record<MigrateOutcome, number>;
  claims: number;
  allOk: boolean;
}

/** A case whose claim the run never settled (it stopped early) counts as failed, resumable. */
export function migrateOutcomeOf(row: MigrateRow): { outcome: MigrateOutcome; code: string; message: string } {
  switch (row.step) {
    case 'staged':
    case 'submitting':
      return {
        outcome: 'failed',
        code: 'not_finished',
        message: "the run stopped before this case's claim was settled; run the same command again",
      };
    default:
      return { outcome: row.step, code: row.error_code ?? '', message: row.error_message ?? '' };
  }
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
export const migrateOutcomeFills: Record<MigrateOutcome, string> = {
  migrated: 'FFC6EFCE',
  valid: 'FFE2EFDA',
  skipped: 'FFEDEDED',
  failed: 'FFF8CBAD',
  rejected: 'FFFFC7CE',
};

/** The line that proves nothing was lost: source = migrated + skipped + failed + rejected. */
export function formatMigrateSummary(summary: MigrateSummary, dryRun: boolean): string {
  const done = dryRun ? `${summary.byOutcome.valid} valid` : `${summary.byOutcome.migrated} migrated`;
  return `migrate-v1 finished: ${summary.cases} v1 cases = ${done} + ${summary.byOutcome.skipped} skipped + ${summary.byOutcome.failed} failed + ${summary.byOutcome.rejected} rejected (${summary.claims} claims)\n`;
}
