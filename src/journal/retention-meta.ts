import { z } from 'zod';
import { jsonField } from './meta.js';

/**
 * What every journal kind records for `prune` (docs/data.md, "Retention"): the files its runs
 * wrote, so that they go with the job, and, once its personal data is removed, when and under
 * which policy. Neither holds personal data.
 */

/** What a written file is to its job: the roles `prune` deletes when the job is thinned. */
export const writtenFileRoles = ['results', 'payloads', 'status', 'worklist', 'page'] as const;
export type WrittenFileRole = (typeof writtenFileRoles)[number];

const writtenFileSchema = z.object({ path: z.string().min(1), role: z.enum(writtenFileRoles) });
export type WrittenFile = z.output<typeof writtenFileSchema>;

/** Every file the job's runs wrote, absolute, each once: the union over its runs. */
export const writtenFilesField = jsonField(z.array(writtenFileSchema));

const thinnedSchema = z.object({
  /** When prune removed the journal's personal data, ISO 8601. */
  at: z.iso.datetime(),
  /** The policy it ran under, as given (`90d`, `7y`). */
  keep_personal_data: z.string(),
  keep_records: z.string(),
});
export type Thinned = z.output<typeof thinnedSchema>;

/** Set by prune in the transaction that removes the personal data: a journal holding it is thinned. */
export const thinnedField = jsonField(thinnedSchema);

/** The written files with `file` added, each path once (a run writing the same file again adds nothing). */
export function withWrittenFile(files: readonly WrittenFile[] | undefined, file: WrittenFile): WrittenFile[] {
  const kept = (files ?? []).filter((known) => known.path !== file.path);
  return [...kept, file];
}

/** The one key every kind's meta shares for its written files. */
interface WrittenFilesMeta {
  get(key: 'written_files'): WrittenFile[] | undefined;
  set(key: 'written_files', value: WrittenFile[]): void;
}

/**
 * Recorded before the file is written, absolute: a file half written by a run that stopped is its
 * job's too. Prune reads the list ([docs/data.md](../../docs/data.md), "Retention").
 */
export function recordWrittenFiles(meta: WrittenFilesMeta, files: readonly (WrittenFile | undefined)[]): void {
  let written = meta.get('written_files');
  const before = JSON.stringify(written ?? []);
  for (const file of files) if (file !== undefined) written = withWrittenFile(written, file);
  if (JSON.stringify(written ?? []) !== before) meta.set('written_files', written ?? []);
}
