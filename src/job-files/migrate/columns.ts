import type { MigrateRow } from './journal.js';

/** migrate-v1's results file: its columns and outcomes, and the outcome of a journal row (read by the report, withdraw and the review too). */
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

export const migrateOutcomeFills: Record<MigrateOutcome, string> = {
  migrated: 'FFC6EFCE',
  valid: 'FFE2EFDA',
  skipped: 'FFEDEDED',
  failed: 'FFF8CBAD',
  rejected: 'FFFFC7CE',
};

/** migrate-v1's columns first; columns staff added after them are ignored. */
export function isMigrateHeader(header: readonly string[]): boolean {
  return migrateColumns.every((name, index) => header[index] === name);
}
