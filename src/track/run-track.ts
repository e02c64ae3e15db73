import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import { ClaimsClient } from '../api/client/index.js';
import type { NetworkOptions } from '../api/client/config.js';
import {
  compareService,
  describeService,
  serviceAt,
  ServiceMismatchError,
  type ServiceIdentity,
} from '../api/service-identity.js';
import { CircuitBreaker, isFatalFailure, judgeFailure } from '../import/breaker.js';
import { bindService } from '../journal/service-binding.js';
import { writeCsvFile } from '../csv/write-csv-file.js';
import { writeFileAtomic } from '../files/write-file.js';
import { namingFile } from '../files/resource-failure.js';
import { PhaseTimer, type PhaseTime } from '../progress/phases.js';
import type { Progress } from '../progress/progress.js';
import { showBreaker, showServiceWaits } from '../progress/service-notices.js';
import { followThrottling, type ThrottlingSummary } from '../rate/follow-throttling.js';
import { dueWithinKey, sourcesKey, TrackJournal, trackJournalFormat } from '../job-files/track/journal.js';
import { isWorkbookFile } from '../workbook/read-rows.js';
import { writeSheet, writeSheets, type SheetLine, type SheetOf } from '../workbook/write-sheet.js';
import { StateReader, TrackStopped, type TrackRequests } from './read-states.js';
import { renderTrackHtml } from './render-html.js';
import { jobName, readTrackSources } from './sources.js';
import {
  statusCells,
  statusColumns,
  statusLineOf,
  whyText,
  majorUnits,
  type WorkItem,
} from '../job-files/track/status.js';
import { TrackTally } from '../job-files/track/tally.js';
import type { TrackSummary } from '../job-files/track/summary.js';

export interface TrackOptions {
  sources: readonly string[];
  /** Every case of the key's environment, with or without sources. */
  all: boolean;
  column?: string | undefined;
  service: {
    baseUrl: string;
    apiKey: string;
    identity?: ServiceIdentity | undefined;
    network?: NetworkOptions | undefined;
  };
  journalFile: string;
  statusFile: string;
  /** Undefined: the worklist is a sheet of the status workbook (the status file must be .xlsx). */
  worklistFile?: string | undefined;
  /** The summary as a page (`--html`), when asked for. */
  htmlFile?: string | undefined;
  /** What the page names as the service it read. */
  serviceName?: string | undefined;
  /** CSV dialect of the files written (the first source's); a workbook ignores it. */
  csvFormat?: { delimiter?: string | undefined; quote?: string | undefined } | undefined;
  concurrency: number;
  maxRps?: number | undefined;
  restart: boolean;
  /** Read every case again, whatever the events say. */
  full: boolean;
  dueWithinDays: number;
  /** The time days left are counted from (ms); default the machine's clock. */
  asOf?: number | undefined;
  logger: Logger;
  stopRequested?: () => boolean;
  progress?: Progress | undefined;
  breakerThreshold?: number;
}

export type RunKind = 'first' | 'incremental' | 'full';

export interface TrackReport {
  kind: RunKind;
  summary: TrackSummary;
  /** The whole worklist, soonest due first. */
  worklist: WorkItem[];
  requests: TrackRequests & { requests: number };
  throttling: ThrottlingSummary;
  abortedBecause?: string | undefined;
  fatal?: unknown;
  phases: PhaseTime[];
  /** The CSV dialect the files were written in (the first source's), for the CLI to name. */
  format: { delimiter?: string | undefined; quote?: string | undefined };
}

const cursorKey = 'events_cursor';

/**
 * `bulk-disputes track` (docs/track.md): the sources' rows into the journal (again only when a
 * source changed), then the service read (reads only): the first run reads every case, later
 * runs only the cases the events since the last run name; then the status file, the worklist and
 * the summary, from the journal. Stopped early, the next run goes on where this one stopped.
 */
export async function runTrack(options: TrackOptions): Promise<TrackReport> {
  const current = options.service.identity ?? serviceAt(options.service.baseUrl, options.service.apiKey);
  const journal = new TrackJournal(options.journalFile);
  let client: ClaimsClient | undefined;
  const phases = new PhaseTimer();
  try {
    phases.next('reading sources');
    const binding = bindService(journal, current, {
      file: options.journalFile,
      restart: options.restart,
      holdsJob: journal.meta(sourcesKey) !== undefined,
      holdsServiceData: journal.readCount() > 0,
      logger: options.logger,
    });
    if (binding === 'forget')
      journal.transaction(() => {
        journal.reset();
        journal.setMeta(cursorKey, '');
        journal.setMeta(sourcesKey, '');
      });
    const format = await stageSources(journal, current, options);
    client = new ClaimsClient({
      baseUrl: options.service.baseUrl,
      apiKey: options.service.apiKey,
      concurrency: options.concurrency,
      maxRps: options.maxRps,
      logger: options.logger,
      network: options.service.network,
    });
    return await readAndWrite(journal, client, options, phases, format);
  } finally {
    options.progress?.done();
    journal.close();
    await client?.close();
  }
}

/** The sources' rows, read again only when a source or the flags changed since the last run (the states read stay). */
async function stageSources(
  journal: TrackJournal,
  current: ServiceIdentity,
  options: TrackOptions,
): Promise<TrackReport['format']> {
  const signature = JSON.stringify({
    format: trackJournalFormat,
    all: options.all,
    column: options.column ?? null,
    sources: await Promise.all(
      options.sources.map(async (source) => {
        const found = await stat(source);
        return [resolve(source), found.size, found.mtimeMs];
      }),
    ),
  });
  if (journal.meta(sourcesKey) === signature)
    return JSON.parse(journal.meta('format') ?? '{}') as TrackReport['format'];
  // One transaction for the whole read: a crash leaves the rows of before, never half of them.
  journal.database.exec('BEGIN');
  try {
    journal.database.exec('DELETE FROM track_rows');
    const read = await readTrackSources(options.sources, options.column, (row) => {
      journal.addRow(row);
    });
    for (const { file, service } of read.services) {
      if (service !== undefined && compareService(service, current).kind === 'other') {
        throw new ServiceMismatchError(
          `${file}: expected a journal of ${describeService(current)}, got one made against ${describeService(service)}; its cases are that service's, so nothing was read`,
        );
      }
    }
    const format: TrackReport['format'] =
      read.csvDialect === undefined ? {} : { delimiter: read.csvDialect.delimiter, quote: read.csvDialect.quote };
    // Cases no source names any more are forgotten (with --all, every case is named).
    if (!options.all)
      journal.database.exec(
        "DELETE FROM track_cases WHERE case_id NOT IN (SELECT case_id FROM track_rows WHERE case_id <> '')",
      );
    journal.setMeta(sourcesKey, signature);
    journal.setMeta('format', JSON.stringify(format));
    journal.database.exec('COMMIT');
    return format;
  } catch (error) {
    journal.database.exec('ROLLBACK');
    throw error;
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
  const stopShowingWaits = progress === undefined ? undefined : showServiceWaits(client, progress);
  const breakerShown = progress === undefined ? undefined : showBreaker(progress);
  const limit = pLimit(options.concurrency);
  const follower = followThrottling({
    client,
    concurrency: options.concurrency,
    apply: (next) => (limit.concurrency = next),
    logger: options.logger,
  });
  const breaker = new CircuitBreaker(options.breakerThreshold ?? 5);
  let fatal: unknown;
  const stop = () => breaker.open || (options.stopRequested?.() ?? false);
  const firstEver = journal.completedRuns() === 0;
  const kind: RunKind = firstEver ? 'first' : options.full ? 'full' : 'incremental';
  const runStartedAt = new Date().toISOString();
  const run = journal.startRun(kind, runStartedAt);
  // `report` and `review` of the journal list the worklist as this run did.
  journal.setMeta(dueWithinKey, String(options.dueWithinDays));
  const reader = new StateReader({
    client,
    journal,
    run,
    runStartedAt,
    concurrency: options.concurrency,
    limit,
    stopRequested: stop,
    onFailure: (error) => {
      judgeFailure(breaker, error, (fatalError) => (fatal ??= fatalError));
      breakerShown?.(breaker);
    },
    onSuccess: () => {
      breaker.succeeded();
    },
    onProgress: (read) => progress?.update(read),
  });
  let abortedBecause: string | undefined;
  try {
    phases.next('reading the service');
    await readService(journal, reader, options, kind);
  } catch (error) {
    if (isFatalFailure(error)) fatal ??= error;
    else if (!(error instanceof TrackStopped)) {
      fatal ??= error;
      options.logger.error({ err: error }, 'track: reading the service failed');
    }
  } finally {
    stopShowingWaits?.();
  }
  const throttling = follower.stop();
  if (journal.staleCount() > 0 || stop() || fatal !== undefined)
    abortedBecause =
      breaker.why ??
      (options.stopRequested?.() === true
        ? 'stop requested'
        : fatal === undefined
          ? `${journal.staleCount()} cases could not be read`
          : fatal instanceof Error
            ? fatal.message
            : 'the service could not be read');
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
  return { kind, ...written, requests, throttling, abortedBecause, fatal, phases: phases.end(), format };
}

async function readService(
  journal: TrackJournal,
  reader: StateReader,
  options: TrackOptions,
  kind: RunKind,
): Promise<void> {
  const cursor = journal.meta(cursorKey);
  // The feed's place is taken before anything is read: an event during the read is read again next time, never missed.
  const takeCursor = async () => {
    journal.setMeta(cursorKey, await reader.newestEventId());
  };
  if (kind === 'incremental' && cursor !== undefined) {
    const followed = await reader.followEvents(
      cursor,
      (newest) => {
        journal.setMeta(cursorKey, newest);
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
    journal.addRow({ source: -1, job: 'all', line: 0, claim_key: '', claim_id: '', case_id: caseId, note: '' });
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

async function writeFiles(
  journal: TrackJournal,
  run: number,
  options: TrackOptions,
  format: TrackReport['format'],
): Promise<{ summary: TrackSummary; worklist: WorkItem[] }> {
  const asOf = options.asOf ?? Date.now();
  const tally = new TrackTally(options.dueWithinDays);
  const lines = function* (): Generator<SheetLine> {
    for (const row of journal.rowsWithStates()) {
      const line = statusLineOf(row, run, asOf);
      tally.add(line);
      yield { cells: statusCells(line) };
    }
  };
  const worklistLines = (worklist: readonly WorkItem[]) => worklist.map((item) => ({ cells: worklistCells(item) }));
  let worklist: WorkItem[] = [];
  if (options.worklistFile === undefined) {
    // One workbook, the worklist its second sheet: known once every status line is written.
    const sheets: SheetOf[] = [
      { options: { sheetName: 'status', header: statusColumns }, lines },
      {
        options: { sheetName: 'worklist', header: worklistColumns },
        lines: () => worklistLines((worklist = tally.worklist())),
      },
    ];
    await writeSheets(options.statusFile, sheets).catch(namingFile(options.statusFile, { resumes: true }));
  } else {
    await writeTable(options.statusFile, 'status', statusColumns, lines(), format).catch(
      namingFile(options.statusFile, { resumes: true }),
    );
    worklist = tally.worklist();
    await writeTable(options.worklistFile, 'worklist', worklistColumns, worklistLines(worklist), format).catch(
      namingFile(options.worklistFile, { resumes: true }),
    );
  }
  const summary = tally.summary;
  if (options.htmlFile !== undefined) {
    const page = renderTrackHtml(summary, worklist, {
      title: options.all ? 'every case' : options.sources.map((source) => jobName(source)).join(', '),
      service: options.serviceName ?? '',
      asOf: new Date(asOf).toISOString(),
    });
    await writeFileAtomic(options.htmlFile, page).catch(namingFile(options.htmlFile, { resumes: true }));
  }
  return { summary, worklist };
}

export const worklistColumns = [
  'case_id',
  'why',
  'resolution_due_date',
  'days_left',
  'status',
  'review_status',
  'amount',
  'currency',
  'reason',
  'claim_id',
  'claim_key',
  'job',
  'line',
] as const;

export function worklistCells(item: WorkItem): string[] {
  const { line } = item;
  const state = line.state;
  return [
    line.caseId,
    whyText[item.why],
    state?.resolutionDueDate ?? '',
    line.daysLeft === undefined ? '' : String(line.daysLeft),
    state?.status ?? '',
    state?.reviewStatus ?? '',
    state === undefined ? '' : majorUnits(state.amount, state.currency),
    state?.currency ?? '',
    state?.reason ?? '',
    line.claimId,
    line.claimKey,
    line.job,
    String(line.line),
  ];
}

async function writeTable(
  file: string,
  sheetName: string,
  header: readonly string[],
  lines: Iterable<SheetLine>,
  format: TrackReport['format'],
): Promise<void> {
  if (isWorkbookFile(file)) await writeSheet(file, { sheetName, header }, lines);
  else await writeCsvFile(file, header, lines, format);
}
