import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { compareService, describeService, ServiceMismatchError } from '../api/service-identity.js';
import { TrackJournal, trackJournalFormat } from '../job-files/track/journal.js';
import type { TrackSourcesRecord } from '../job-files/track/meta.js';
import { sameRecord } from '../journal/meta.js';
import type { TrackPlan } from './plan.js';
import type { TrackReport } from './report.js';
import { readTrackSources } from './sources.js';

/** The sources' rows, read again only when a source or the flags changed since the last run (the states read stay). */
export async function stageSources(
  journal: TrackJournal,
  { sources, identity: current }: Pick<TrackPlan, 'sources' | 'identity'>,
): Promise<TrackReport['format']> {
  const signature: TrackSourcesRecord = {
    format: trackJournalFormat,
    all: sources.all,
    column: sources.column ?? null,
    sources: await Promise.all(
      sources.files.map(async (source) => {
        const found = await stat(source);
        return [resolve(source), found.size, found.mtimeMs] as [string, number, number];
      }),
    ),
  };
  if (sameRecord(journal.meta.get('sources'), signature)) return journal.meta.get('format') ?? {};
  // One transaction for the whole read: a crash leaves the rows of before, never half of them.
  journal.database.exec('BEGIN');
  try {
    journal.database.exec('DELETE FROM track_rows');
    const read = await readTrackSources(sources.files, sources.column, (row) => {
      journal.addRow(row);
    });
    for (const { file, service } of read.services) {
      if (service !== undefined && compareService(service, current).kind === 'other') {
        throw new ServiceMismatchError(
          `${file}: expected a journal of ${describeService(current)}, got one made against ` +
            `${describeService(service)}; its cases are that service's, so nothing was read`,
        );
      }
    }
    const format: TrackReport['format'] =
      read.csvDialect === undefined ? {} : { delimiter: read.csvDialect.delimiter, quote: read.csvDialect.quote };
    // Cases no source names any more are forgotten (with --all, every case is named).
    if (!sources.all)
      journal.database.exec(
        "DELETE FROM track_cases WHERE case_id NOT IN (SELECT case_id FROM track_rows WHERE case_id <> '')",
      );
    journal.meta.set('sources', signature);
    journal.meta.set('format', format);
    journal.database.exec('COMMIT');
    return format;
  } catch (error) {
    journal.database.exec('ROLLBACK');
    throw error;
  }
}
