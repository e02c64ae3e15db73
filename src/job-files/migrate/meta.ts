import { z } from 'zod';
import { journalMetaOf, jsonField, stagedField, type JournalMeta } from '../../journal/meta.js';
import type { JournalDatabase } from '../../journal/open.js';
import { thinnedField, writtenFilesField } from '../../journal/retention-meta.js';
import { serviceField } from '../../journal/service-binding.js';

/** What ties a migrate-v1 journal to its job: the flags that choose what is made. Read loosely, as the import's fingerprint. */
export const migrateSettingsSchema = z.looseObject({
  format: z.string(),
  groupBy: z.array(z.string()).readonly(),
  dryRun: z.boolean(),
});
export type MigrateSettings = z.output<typeof migrateSettingsSchema>;

/** A migrate-v1 journal's `meta` (docs/data.md). */
export const migrateMetaFields = {
  settings: jsonField(migrateSettingsSchema),
  /** Every v1 case is listed in the journal: a later run resumes instead of listing them again. */
  staged: stagedField,
  service: serviceField,
  /** The files the job's runs wrote, and when prune removed its personal data (docs/data.md, "Retention"). */
  written_files: writtenFilesField,
  thinned: thinnedField,
} as const;

export type MigrateMeta = JournalMeta<typeof migrateMetaFields>;

export const migrateMetaOf = (database: JournalDatabase, file: string): MigrateMeta =>
  journalMetaOf(migrateMetaFields, database, file);
