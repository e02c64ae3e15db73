import { z } from 'zod';
import { journalMetaOf, jsonField, stagedField, type JournalMeta } from '../../journal/meta.js';
import type { JournalDatabase } from '../../journal/open.js';
import { thinnedField, writtenFilesField } from '../../journal/retention-meta.js';
import { serviceField } from '../../journal/service-binding.js';
import { expectFormat, expectStaged } from '../../journal/snapshot.js';

const list = z.array(z.string()).readonly().nullable();

/**
 * What ties a withdraw journal to its job: its sources' sha256 and the flags that choose what is
 * taken back. Read loosely, as the import's: an earlier version's may lack a key or hold another,
 * which the comparison tells as a difference (withdraw/made-with.ts), not as damage.
 */
export const withdrawFingerprintSchema = z.looseObject({
  format: z.string(),
  sources: z.array(z.string()),
  scope: z.string(),
  deleteUnfiled: z.boolean(),
  outcomes: list,
  claimKeys: list,
  column: z.string().nullable(),
  dryRun: z.boolean(),
});
export type WithdrawFingerprint = z.output<typeof withdrawFingerprintSchema>;
/** What a journal records: any key may be missing (an earlier version's). */
const recordedFingerprintSchema = withdrawFingerprintSchema.partial();
export type RecordedWithdrawFingerprint = z.output<typeof recordedFingerprintSchema>;

/** The results file's delimiter and quote, those of the sources'. */
export const delimitedFormatSchema = z.object({ delimiter: z.string().optional(), quote: z.string().optional() });

/** A withdraw journal's `meta` (docs/data.md). */
export const withdrawMetaFields = {
  fingerprint: jsonField(recordedFingerprintSchema),
  /** Every source's targets are in the journal: a later run resumes instead of reading them again. */
  staged: stagedField,
  service: serviceField,
  results_format: jsonField(delimitedFormatSchema),
  /** The sources, absolute: what `review` gives as the command that runs this withdraw again. */
  sources: jsonField(z.array(z.string())),
  /** The files the job's runs wrote, and when prune removed its personal data (docs/data.md, "Retention"). */
  written_files: writtenFilesField,
  thinned: thinnedField,
} as const;

export type WithdrawMeta = JournalMeta<typeof withdrawMetaFields>;

export const withdrawMetaOf = (database: JournalDatabase, file: string): WithdrawMeta =>
  journalMetaOf(withdrawMetaFields, database, file);

/** A withdraw journal of this version's format (inside its fingerprint), staged whole. */
export function expectWithdrawJournal(meta: WithdrawMeta, format: string): void {
  expectFormat(meta.get('fingerprint')?.format, format, 'a withdraw journal');
  expectStaged(meta);
}
