import { z } from 'zod';
import { linesOutsideSchema } from '../../csv/report-region.js';
import { writtenDialectSchema } from '../../csv/layout.js';
import { journalMetaOf, jsonField, stagedField, textField, type JournalMeta } from '../../journal/meta.js';
import type { JournalDatabase } from '../../journal/open.js';
import { thinnedField, writtenFilesField } from '../../journal/retention-meta.js';
import { serviceField } from '../../journal/service-binding.js';
import { expectFormat, expectStaged } from '../../journal/snapshot.js';

/** The `format` of an import journal: bumped when the tables change, so an older journal is refused rather than misread. */
export const journalFormat = '2';

/** A shard as the fingerprint records it (`--shard 2/4`: index 2 of 4). */
const shardSchema = z.object({ index: z.number().int().positive(), count: z.number().int().positive() });

/**
 * What ties the journal to its job: the input's and the mapping's sha256 and the flags that change
 * what is sent. Read loosely: a journal of an earlier version may lack a key or hold one since
 * dropped, which the comparison then tells as a difference (import/made-with.ts), not as damage.
 */
export const importFingerprintSchema = z.looseObject({
  format: z.string(),
  input: z.string(),
  mapping: z.string(),
  fileMode: z.string(),
  shard: shardSchema.nullable(),
  dryRun: z.boolean(),
  sheet: z.string().optional(),
  idPrefix: z.string().optional(),
});
export type ImportFingerprint = z.output<typeof importFingerprintSchema>;
/** What a journal records: any key may be missing (an earlier version's). */
const recordedFingerprintSchema = importFingerprintSchema.partial();
export type RecordedImportFingerprint = z.output<typeof recordedFingerprintSchema>;

/**
 * An import journal's `meta` (docs/data.md): each key, and what its value must be. Every key is
 * optional when read: a journal of an earlier version lacks those added since.
 */
export const importMetaFields = {
  /** The tables' format (`journalFormat`). */
  format: textField(),
  fingerprint: jsonField(recordedFingerprintSchema),
  /** Every input row is in the journal: a later run resumes instead of staging again. */
  staged: stagedField,
  service: serviceField,
  /** The mapping's text the journal was made with: a later run with another mapping is told which keys changed. */
  made_with_mapping: textField(),
  /** The input file the journal was made with, absolute: a later run with another input is told which file it was. */
  made_with_input: textField(),
  /** The evidence folder of the journal's last run (`review` checks evidence paths where the import looked). */
  evidence_dir: textField(),
  /** The mapping file of the journal's last run, absolute (`review` finds it when its sha256 is still the fingerprint's). */
  mapping_file: textField(),
  /**
   * When the last run that had claims to send (or rows to stage) started, ISO 8601: a later run
   * with nothing left to send names it as the run that settled every row.
   */
  settled_by_run_at: textField(z.iso.datetime()),
  /** The input's header, as read: the results file's first columns. */
  source_columns: jsonField(z.array(z.string())),
  /** The lines of a report outside its table, by why (docs/mappings.md "Reports with title lines, trailers and sections"). */
  lines_outside: jsonField(linesOutsideSchema),
  /** The results CSV's dialect, the input's, recorded at staging (a resumed run and merge-results write it alike). */
  results_dialect: jsonField(writtenDialectSchema),
  /** The mapping's `fieldColumns`, recorded at staging: a results workbook's error cells, from the journal alone. */
  field_columns: jsonField(z.record(z.string(), z.array(z.string()))),
  /**
   * The temporary file the results are being written to while claims are sent, until it is renamed
   * to the results file: a run killed meanwhile leaves it, and the next run removes it.
   */
  results_temporary: textField(),
  /** What the input was (`review` writes a workbook's fixes as a workbook). */
  input_kind: textField(z.enum(['csv', 'xlsx'])),
  /** Staged by a version that masks card numbers, or masked in place since (mask-staged.ts). */
  card_numbers_masked: textField(z.literal('1')),
  /** The files the job's runs wrote, and when prune removed its personal data (docs/data.md, "Retention"). */
  written_files: writtenFilesField,
  thinned: thinnedField,
} as const;

export type ImportMetaFields = typeof importMetaFields;
export type ImportMeta = JournalMeta<ImportMetaFields>;

export const importMetaOf = (database: JournalDatabase, file: string): ImportMeta =>
  journalMetaOf(importMetaFields, database, file);

/** An import journal of this version's format, staged whole: what every reader of one it did not write checks first. */
export function expectImportJournal(meta: ImportMeta): void {
  expectFormat(meta.get('format'), journalFormat, 'an import journal');
  expectStaged(meta);
}
