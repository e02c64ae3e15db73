import type { ResultLine } from '../job-files/read/read-results.js';
import { Summariser } from '../job-files/summarise.js';
import { defaultDueWithinDays, viewTrackJournal, type TrackView } from '../job-files/track/journal-view.js';
import { statusCells, statusColumns, type StatusLine } from '../job-files/track/status.js';
import { nextSteps, type WorkItem } from '../job-files/track/worklist.js';
import { formatTrackSummary } from '../job-files/track/summary.js';
import {
  matchingCells,
  recordless,
  ReviewJobError,
  type ReviewRow,
  type RowEntry,
  type TrackReviewJob,
} from './job-types.js';
import { shellWord } from './shell-word.js';

/** What each reason for a case being on the worklist asks of a person (docs/track.md, "The worklist"). */
const hints = nextSteps;

/**
 * A track journal under review (docs/track.md, "Looking again without reading the service"): one
 * row per status line, as the status file writes them, days left counted from `asOf` (now) with the
 * due window its last run used; the rows "to fix" are the worklist, soonest due first; a row's
 * outcome is its case's status. Read from a private copy; the lines are kept (a track's cases are
 * what one night or a few filed).
 */
export async function openTrackJob(file: string, asOf = Date.now()): Promise<TrackReviewJob> {
  const lines: StatusLine[] = [];
  const view = await viewTrackJournal(file, { asOf, onLine: (line) => lines.push(line) });
  if (view === undefined) throw new ReviewJobError(`${file}: expected a track journal, got another file`);
  const listed = new Map<StatusLine, WorkItem>(view.worklist.map((item) => [item.line, item]));
  const summariser = new Summariser();
  const entries: RowEntry[] = lines.map((line, position) => {
    const item = listed.get(line);
    const outcome = outcomeOf(line);
    const errorCode = item?.why ?? '';
    const errorMessage = item === undefined ? '' : item.why === 'not_filed' ? neverFiledText(line) : dueText(line);
    // Counted as the report counts a job's lines: a claim is its key, or its id when the source knew no key.
    const counted: ResultLine = {
      kind: 'result',
      line: String(position + 1),
      claimKey: line.claimKey === '' ? line.claimId : line.claimKey,
      claimId: line.claimId,
      caseId: line.caseId,
      outcome,
      errorCode,
      errorMessage,
      errorField: '',
      ok: item === undefined,
    };
    summariser.add(counted);
    return {
      line: position + 1,
      shard: 0,
      idx: position,
      outcome,
      errorCode,
      errorMessage,
      errorField: '',
      claimKey: counted.claimKey,
      claimId: line.claimId,
      caseId: line.caseId,
      toFix: item !== undefined,
    };
  });
  const cellsOf = (entry: RowEntry): Record<string, string> => {
    const line = lines[entry.idx];
    if (line === undefined) return {};
    const cells = statusCells(line);
    return Object.fromEntries(statusColumns.map((column, position) => [column, cells[position] ?? '']));
  };
  const byLine = new Map(lines.map((line, position) => [line, entries[position]]));
  const rows: ReviewRow[] = view.worklist.flatMap((item) => {
    const entry = byLine.get(item.line);
    return entry === undefined ? [] : [{ ...entry, cells: cellsOf(entry), record: recordless }];
  });
  const retry = rereadOf(file, view);
  return {
    kind: 'track',
    journals: [file],
    journal: file,
    service: view.service,
    columns: statusColumns,
    entries,
    rows,
    summary: summariser.summary(),
    mixedClaims: summariser.mixedClaimKeys(),
    fixOutcomes: undefined,
    hints,
    cellsOf,
    matching: matchingCells(cellsOf),
    retryCommand: retry.command,
    retryNote: retry.note,
    summaryText: formatTrackSummary(view.summary, false),
    close: async () => undefined,
  };
}

/** A row's outcome on the page: its case's status, or why it has none. */
function outcomeOf(line: StatusLine): string {
  if (line.state !== undefined) return line.state.status;
  if (line.note.includes('(404)')) return 'not_found';
  return line.caseId === '' ? 'no_case' : 'not_read';
}

/** A case never filed: what its job recorded when it did not file it. */
function neverFiledText(line: StatusLine): string {
  return line.jobError === '' ? `never filed (${line.jobOutcome || 'no job outcome known'})` : line.jobError;
}

function dueText(line: StatusLine): string {
  const due = line.state?.resolutionDueDate.slice(0, 10) ?? '';
  if (due === '' || line.daysLeft === undefined) return 'no due date';
  if (line.daysLeft < 0) return `due ${due}: overdue by ${-line.daysLeft} ${-line.daysLeft === 1 ? 'day' : 'days'}`;
  return `due ${due}: ${line.daysLeft} ${line.daysLeft === 1 ? 'day' : 'days'} left`;
}

/**
 * The same track, run again on this journal: it reads only what changed since (the events
 * since its cursor), so it is safe to run at any time. Its sources are the paths the journal
 * staged; the service is the journal's own, its address or the embedded sandbox's file, never a key.
 */
function rereadOf(file: string, view: TrackView): { command: string; note: string } {
  const parts = ['bulk-disputes', 'track'];
  if (view.sources === undefined) parts.push('<the same sources>');
  else parts.push(...view.sources.sources.map(([source]) => shellWord(source)));
  if (view.sources?.all === true) parts.push('--all');
  if (typeof view.sources?.column === 'string') parts.push('--column', shellWord(view.sources.column));
  parts.push('--journal', shellWord(file));
  if (view.dueWithinDays !== defaultDueWithinDays) parts.push('--due-within', String(view.dueWithinDays));
  const service = view.serviceIdentity;
  if (service?.kind === 'url') parts.push('--base-url', shellWord(service.baseUrl));
  if (service?.kind === 'embedded-sandbox') parts.push('--sandbox-db', shellWord(service.db));
  const when = view.lastRunAt === '' ? 'no run of it has finished yet' : `its last run started ${view.lastRunAt}`;
  const note = [
    `A track journal holds the cases' states as they were last read (${when}); days left are counted from ` +
      `now. Nothing to edit here: act on a case at the service.`,
    'Read them again (only the cases that moved since are read; nothing is ever sent to the service but reads):',
  ].join('\n');
  return { command: parts.join(' '), note };
}
