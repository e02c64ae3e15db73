import type { ClaimsClient } from '../api/client/index.js';
import { isFatalFailure } from '../rate/breaker.js';
import { resolve } from 'node:path';
import { withBoundJournal } from '../journal/bound-journal.js';
import { recordWrittenFiles } from '../journal/retention-meta.js';
import { PhaseTimer } from '../progress/phases.js';
import { senderNotices } from '../progress/service-notices.js';
import { Sender } from '../rate/sender.js';
import { TrackJournal } from '../job-files/track/journal.js';
import { resolveTrackPlan, type TrackPlan, type TrackRequest } from './plan.js';
import { StateReader, TrackStopped } from './read-states.js';
import { stageSources } from './stage-sources.js';
import { writeFiles } from './write-files.js';

import type { RunKind, TrackReport } from './report.js';

export type { TrackRequest } from './plan.js';
export type { RunKind, TrackReport } from './report.js';

/**
 * `bulk-disputes track` (docs/track.md): the sources' rows into the journal (again only when a
 * source changed), then the service read (reads only): the first run reads every case, later
 * runs only the cases the events since the last run name; then the status file, the worklist and
 * the summary, from the journal. Stopped early, the next run goes on where this one stopped.
 */
export async function runTrack(request: TrackRequest): Promise<TrackReport> {
  return trackByPlan(resolveTrackPlan(request));
}

async function trackByPlan(plan: TrackPlan): Promise<TrackReport> {
  const phases = new PhaseTimer();
  phases.next('reading sources');
  return withBoundJournal(TrackJournal, plan, async (journal, connect) => {
    const format = await stageSources(journal, plan);
    return readAndWrite(journal, connect(), plan, phases, format);
  });
}

async function readAndWrite(
  journal: TrackJournal,
  client: ClaimsClient,
  plan: TrackPlan,
  phases: PhaseTimer,
  format: TrackReport['format'],
): Promise<TrackReport> {
  const { progress } = plan;
  const sender = new Sender({ client, pacing: plan.pacing, logger: plan.logger, notices: senderNotices(progress) });
  const firstEver = journal.completedRuns() === 0;
  const kind: RunKind = firstEver ? 'first' : plan.full ? 'full' : 'incremental';
  const runStartedAt = new Date().toISOString();
  const run = journal.startRun(kind, runStartedAt);
  // `report` and `review` of the journal list the worklist as this run did.
  journal.meta.set('due_within', String(plan.worklist.dueWithinDays));
  const reader = new StateReader({
    client,
    journal,
    run,
    runStartedAt,
    concurrency: plan.pacing.concurrency,
    sender,
    onProgress: (read) => progress?.update(read),
  });
  try {
    phases.next('reading the service');
    await readService(journal, reader, plan, kind);
  } catch (error) {
    if (isFatalFailure(error)) sender.fatal ??= error;
    else if (!(error instanceof TrackStopped)) {
      sender.fatal ??= error;
      plan.logger.error({ err: error }, 'track: reading the service failed');
    }
  } finally {
    sender.stopShowingWaits();
  }
  const throttling = sender.finish();
  const abortedBecause = whyStopped(journal, sender);
  progress?.done();
  phases.next('writing');
  const { statusFile, worklistFile, htmlFile } = plan.files;
  recordWrittenFiles(journal.meta, [
    { path: resolve(statusFile), role: 'status' },
    worklistFile === undefined ? undefined : { path: resolve(worklistFile), role: 'worklist' },
    htmlFile === undefined ? undefined : { path: resolve(htmlFile), role: 'page' },
  ]);
  const written = await writeFiles(journal, run, plan, format);
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

async function readService(journal: TrackJournal, reader: StateReader, plan: TrackPlan, kind: RunKind): Promise<void> {
  const { all } = plan.sources;
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
      all
        ? (caseId) => {
            addWholeCase(journal, caseId);
          }
        : undefined,
    );
    if (followed === undefined) {
      plan.logger.warn(
        { cursor },
        'the events cursor of the last run is no longer known to the service: every case is read again',
      );
      journal.markAllStale();
      await takeCursor();
      await readStates(journal, reader, plan.progress, true);
      return;
    }
    await readStates(journal, reader, plan.progress, false);
    return;
  }
  if (kind === 'full' || cursor === undefined) await takeCursor();
  if (kind === 'full') journal.markAllStale();
  if (all && kind !== 'incremental') {
    plan.progress?.begin({ label: 'reading cases', unit: 'cases' });
    await reader.walkEverything((caseId) => {
      addWholeCase(journal, caseId);
    });
  }
  await readStates(journal, reader, plan.progress, true);
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
  progress: TrackPlan['progress'],
  walk: boolean,
): Promise<void> {
  await reader.expandClaims();
  progress?.begin({ label: 'reading cases', unit: 'cases', total: journal.staleCount() });
  await reader.readStale({ walk });
}
