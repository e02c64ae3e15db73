import { clientOf, identityOf } from '../api/service-target.js';
import { ClaimsClient } from '../api/client/index.js';
import { isFatalFailure } from '../rate/breaker.js';
import { bindService } from '../journal/service-binding.js';
import { PhaseTimer } from '../progress/phases.js';
import { senderNotices } from '../progress/service-notices.js';
import { resolvePacing } from '../rate/pacing.js';
import { Sender } from '../rate/sender.js';
import { TrackJournal } from '../job-files/track/journal.js';
import { StateReader, TrackStopped } from './read-states.js';
import { stageSources } from './stage-sources.js';
import { writeFiles } from './write-files.js';

import type { RunKind, TrackOptions, TrackReport } from './options.js';

/**
 * `bulk-disputes track` (docs/track.md): the sources' rows into the journal (again only when a
 * source changed), then the service read (reads only): the first run reads every case, later
 * runs only the cases the events since the last run name; then the status file, the worklist and
 * the summary, from the journal. Stopped early, the next run goes on where this one stopped.
 */
export async function runTrack(options: TrackOptions): Promise<TrackReport> {
  const current = identityOf(options.service);
  const journal = new TrackJournal(options.journalFile);
  let client: ClaimsClient | undefined;
  const phases = new PhaseTimer();
  try {
    phases.next('reading sources');
    const binding = bindService(journal.meta, current, {
      file: options.journalFile,
      restart: options.restart,
      holdsJob: journal.meta.has('sources'),
      holdsServiceData: journal.readCount() > 0,
      logger: options.logger,
    });
    if (binding === 'forget')
      journal.transaction(() => {
        journal.reset();
        journal.meta.delete('events_cursor');
        journal.meta.delete('sources');
      });
    const format = await stageSources(journal, current, options);
    client = clientOf(options.service, options);
    return await readAndWrite(journal, client, options, phases, format);
  } finally {
    options.progress?.done();
    journal.close();
    await client?.close();
  }
}

async function readAndWrite(
  journal: TrackJournal,
  client: ClaimsClient,
  options: TrackOptions,
  phases: PhaseTimer,
  format: TrackReport['format'],
): Promise<TrackReport> {
  const { progress } = options;
  const sender = new Sender({
    client,
    pacing: resolvePacing(options, { breakerThreshold: 5 }),
    logger: options.logger,
    notices: senderNotices(progress),
  });
  const firstEver = journal.completedRuns() === 0;
  const kind: RunKind = firstEver ? 'first' : options.full ? 'full' : 'incremental';
  const runStartedAt = new Date().toISOString();
  const run = journal.startRun(kind, runStartedAt);
  // `report` and `review` of the journal list the worklist as this run did.
  journal.meta.set('due_within', String(options.dueWithinDays));
  const reader = new StateReader({
    client,
    journal,
    run,
    runStartedAt,
    concurrency: options.concurrency,
    sender,
    onProgress: (read) => progress?.update(read),
  });
  try {
    phases.next('reading the service');
    await readService(journal, reader, options, kind);
  } catch (error) {
    if (isFatalFailure(error)) sender.fatal ??= error;
    else if (!(error instanceof TrackStopped)) {
      sender.fatal ??= error;
      options.logger.error({ err: error }, 'track: reading the service failed');
    }
  } finally {
    sender.stopShowingWaits();
  }
  const throttling = sender.finish();
  const abortedBecause = whyStopped(journal, sender);
  progress?.done();
  phases.next('writing');
  const written = await writeFiles(journal, run, options, format);
  const requests = {
    ...reader.requests,
    requests:
      reader.requests.casePages + reader.requests.caseReads + reader.requests.claimReads + reader.requests.eventPages,
  };
  // A run that stopped early is not a finished one: the next is again a first run until one ends.
  if (abortedBecause === undefined) journal.endRun(run, new Date().toISOString(), requests);
  const { fatal } = sender;
  return { kind, ...written, requests, throttling, abortedBecause, fatal, phases: phases.end(), format };
}

/** Why the run stopped before reading every case, when it did. */
function whyStopped(journal: TrackJournal, sender: Sender): string | undefined {
  const { fatal } = sender;
  if (journal.staleCount() === 0 && !sender.stopping && fatal === undefined) return undefined;
  return (
    sender.breaker.why ??
    (sender.stopRequested
      ? 'stop requested'
      : fatal === undefined
        ? `${journal.staleCount()} cases could not be read`
        : fatal instanceof Error
          ? fatal.message
          : 'the service could not be read')
  );
}

async function readService(
  journal: TrackJournal,
  reader: StateReader,
  options: TrackOptions,
  kind: RunKind,
): Promise<void> {
  const cursor = journal.meta.get('events_cursor');
  // The feed's place is taken before anything is read: an event during the read is read again next time, never missed.
  const takeCursor = async () => {
    journal.meta.set('events_cursor', await reader.newestEventId());
  };
  if (kind === 'incremental' && cursor !== undefined) {
    const followed = await reader.followEvents(
      cursor,
      (newest) => {
        journal.meta.set('events_cursor', newest);
      },
      options.all
        ? (caseId) => {
            addWholeCase(journal, caseId);
          }
        : undefined,
    );
    if (followed === undefined) {
      options.logger.warn(
        { cursor },
        'the events cursor of the last run is no longer known to the service: every case is read again',
      );
      journal.markAllStale();
      await takeCursor();
      await readStates(journal, reader, options, true);
      return;
    }
    await readStates(journal, reader, options, false);
    return;
  }
  if (kind === 'full' || cursor === undefined) await takeCursor();
  if (kind === 'full') journal.markAllStale();
  if (options.all && kind !== 'incremental') {
    options.progress?.begin({ label: 'reading cases', unit: 'cases' });
    await reader.walkEverything((caseId) => {
      addWholeCase(journal, caseId);
    });
  }
  await readStates(journal, reader, options, true);
}

/** `--all`: a case found in the list or the events is tracked from now on, as a row of its own. */
function addWholeCase(journal: TrackJournal, caseId: string): void {
  if (journal.addCase(caseId))
    journal.addRow({
      source: -1,
      job: 'all',
      line: 0,
      claim_key: '',
      claim_id: '',
      case_id: caseId,
      note: '',
      job_outcome: '',
      job_error: '',
    });
}

async function readStates(
  journal: TrackJournal,
  reader: StateReader,
  options: TrackOptions,
  walk: boolean,
): Promise<void> {
  await reader.expandClaims();
  options.progress?.begin({ label: 'reading cases', unit: 'cases', total: journal.staleCount() });
  await reader.readStale({ walk });
}
