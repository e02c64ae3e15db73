import { z } from 'zod';
import { journalMetaOf, jsonField, textField, type JournalMeta } from '../../journal/meta.js';
import type { JournalDatabase } from '../../journal/open.js';
import { thinnedField, writtenFilesField } from '../../journal/retention-meta.js';
import { serviceField } from '../../journal/service-binding.js';

/**
 * What the rows were staged from: the sources (absolute path, size, mtime each) and the flags, so
 * that a run with the same ones reads the journal's rows instead of the sources again.
 */
export const trackSourcesSchema = z.looseObject({
  format: z.string().optional(),
  all: z.boolean(),
  column: z.string().nullable(),
  sources: z.array(z.tuple([z.string(), z.number(), z.number()])),
});
export type TrackSourcesRecord = z.output<typeof trackSourcesSchema>;

/** A track journal's `meta` (docs/data.md). */
export const trackMetaFields = {
  sources: jsonField(trackSourcesSchema),
  service: serviceField,
  /** The results' delimiter and quote, of the sources. */
  format: jsonField(z.object({ delimiter: z.string().optional(), quote: z.string().optional() })),
  /** The last event read from the service's feed: the next run reads from it. */
  events_cursor: textField(),
  /** The last run's `--due-within`, in days (the review and the report show the same worklist). */
  due_within: textField(z.string().regex(/^\d+$/)),
  /** The files the job's runs wrote, and when prune removed its personal data (docs/data.md, "Retention"). */
  written_files: writtenFilesField,
  thinned: thinnedField,
} as const;

export type TrackMeta = JournalMeta<typeof trackMetaFields>;

export const trackMetaOf = (database: JournalDatabase, file: string): TrackMeta =>
  journalMetaOf(trackMetaFields, database, file);
