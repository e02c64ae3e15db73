import { mkdir } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { describeService } from '../../api/service-identity.js';
import type { TrackFiles, TrackRequest } from '../../track/plan.js';
import { runTrack } from '../../track/run-track.js';
import { formatWorklist } from '../../track/render-text.js';
import { jobStem } from '../../job-files/job-name.js';
import { formatTrackSummary, recoveryRates } from '../../job-files/track/summary.js';
import type { CliContext } from '../context.js';
import { phasesOf } from '../../metrics/recorder.js';
import { UsageError } from '../exit-codes.js';
import { integer, resultsFileName, resultsFormatOption, type ResultsFormat } from '../flags.js';
import { isWorkbookFile } from '../../workbook/read-rows.js';
import { resolveMaxRps } from '../settings.js';
import { requireFile } from './required-paths.js';
import { jobExitCode, writeSummaryTail } from './job-ending.js';
import { addJobOptions, type JobOptionsHelp } from './job-options.js';
import { runAgainstService, sandboxNamePart, type JobFlags, type JobSetUp } from './service-target.js';

interface TrackFlags extends JobFlags {
  all: boolean;
  column?: string;
  results?: string;
  resultsFormat?: ResultsFormat;
  worklist?: string;
  html?: string;
  journal?: string;
  dueWithin: number;
  asOf?: Date;
  full: boolean;
}

/** What the job's shared flags say for track, and its help after the options. */
const jobHelp: JobOptionsHelp = {
  job: 'track',
  concurrency: 'the most reads at once; fewer while the service answers 503, paced while it answers 429',
  restart: 'start over a journal made against another service',
  after: `
Sources name the cases to follow, as withdraw takes them:
  an import's journal (or its shards' journals), or a migrate-v1 journal: every row of the job
  a results file of ours (CSV in any dialect we write, or .xlsx)
  a CSV or workbook with a claim_id or case_id column (--column for another header)
  --all: every case of the key's environment

Examples:
  # this morning: what became of last night's disputes, and what is due
  bulk-disputes track out/disputes-2026-11-26.journal.sqlite

  # every import of the month, one status file
  bulk-disputes track out/disputes-2026-11-*.journal.sqlite --results out/november.track.csv

The first run reads every case; later runs read only the cases the service's events name since
the last run. Reads only: track never changes anything at the service. Writes a status file (one
line per source row), a worklist (cases needing a person: review, a merchant's answer, a due date
within --due-within days; soonest first) and prints the summary.
`,
};

/** `bulk-disputes track`: what became of the disputes filed, and the morning's worklist (docs/track.md). */
export function trackCommand(context: CliContext): Command {
  const command = new Command('track')
    .description(
      'follow the cases a job filed: a status file per source row, the worklist of what needs a person, and a summary of outcomes; reads only',
    )
    .argument(
      '[source...]',
      'import or migrate-v1 journals, results files (CSV or .xlsx), or CSV/workbook lists with a claim_id or case_id column',
    )
    .option('--all', "every case of the key's environment, with or without sources", false)
    .option('--column <header>', 'a list: the header of the column holding claim ids (default: claim_id, or case_id)')
    .option(
      '--results <file>',
      'the status file, one line per source row; .xlsx writes a workbook (default: <first source>.track[.sandbox].csv here)',
    )
    .addOption(resultsFormatOption())
    .option(
      '--worklist <file>',
      'the worklist file (default: a second sheet of a .xlsx status file, or beside a CSV one, .worklist before its extension)',
    )
    .option(
      '--html <file>',
      'also draw the summary as a page: outcomes by reason, cases resolved by week, the worklist (self-contained, nothing fetched)',
    )
    .option(
      '--journal <file>',
      'the track journal that makes later runs incremental (default: <first source>.track[.sandbox].journal.sqlite beside the source)',
    )
    .option(
      '--due-within <days>',
      'a case due within this many days is on the worklist',
      integer('--due-within', 0, 3650),
      7,
    )
    .option('--as-of <datetime>', 'count days left from this time (default: now), e.g. 2026-11-28T08:00:00Z', dateOf)
    .option('--full', 'read every case again, whatever the events say', false);
  return addJobOptions(command, jobHelp).action(async (sources: string[], flags: TrackFlags) => {
    context.setExitCode(await runTrackCommand(sources, flags, context));
  });
}

function dateOf(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new InvalidArgumentError(`--as-of: expected an ISO 8601 time such as 2026-11-28T08:00:00Z, got ${value}`);
  return date;
}

async function runTrackCommand(sources: string[], flags: TrackFlags, context: CliContext) {
  const { io, logger } = context;
  if (sources.length === 0 && !flags.all)
    throw new UsageError('track: expected a source (a journal, a results file or a list of ids) or --all, got neither');
  for (const source of sources) await requireFile(source, 'source', 'a readable journal, results file or list');
  const files = await filesOf(sources, flags, io.env);
  const { statusFile, worklistFile, htmlFile, journalFile } = files;
  const maxRps = resolveMaxRps(flags.maxRps, io.env);
  return runAgainstService(flags, context, { doing: 'tracking at', journalFile, maxRps }, async (job) => {
    const { service } = job;
    const report = await runTrack(trackRequestOf(sources, flags, files, job));
    logger.info(
      {
        service: describeService(service.identity),
        run: report.kind,
        rows: report.summary.rows,
        cases: report.summary.cases,
        changed: report.summary.changed,
        worklist: report.worklist.length,
        byStatus: countsOf(report.summary.byStatus),
        recovery: recoveryRates(report.summary),
        requests: report.requests,
        throttling: report.throttling,
        status: statusFile,
        worklistFile,
      },
      'track finished',
    );
    io.stdout.write(formatWorklist(report.worklist));
    io.stderr.write(formatTrackSummary(report.summary, report.kind === 'first'));
    io.stderr.write(
      `requests: ${report.requests.requests} (${report.requests.eventPages} event pages, ` +
        `${report.requests.casePages} case pages, ${report.requests.caseReads} case reads, ` +
        `${report.requests.claimReads} claim reads)\n`,
    );
    writeSummaryTail(
      io,
      report,
      `status: ${statusFile}\nworklist: ${worklistFile ?? `${statusFile} (its worklist sheet)`}\n${htmlFile === undefined ? '' : `page: ${htmlFile}\n`}`,
    );
    context.metrics.record({
      phases: phasesOf(report.phases),
      throttling: report.throttling,
      track: {
        worklistByWhy: tally(report.worklist.map((item) => item.why)),
        // A negative count of days left: the due date has passed.
        // A case never filed waits on no deadline of the service's: it is counted by its why, not as overdue.
        worklistOverdue: report.worklist.filter((item) => item.why !== 'not_filed' && (item.line.daysLeft ?? 0) < 0)
          .length,
        casesByStatus: countsOf(report.summary.byStatus),
        recoveryByCurrency: recoveryRates(report.summary),
      },
    });
    return jobExitCode(report, report.worklist.length === 0, io);
  });
}

/** The request, from the flags: every flag of the job's own is read here, and nowhere else on its way to the plan. */
function trackRequestOf(sources: readonly string[], flags: TrackFlags, files: TrackFiles, job: JobSetUp): TrackRequest {
  return {
    ...job,
    ...files,
    sources,
    all: flags.all,
    column: flags.column,
    serviceName: describeService(job.service.identity),
    full: flags.full,
    dueWithinDays: flags.dueWithin,
    asOf: flags.asOf?.getTime(),
  };
}

/** The files track writes: given, or named after the first source; each a file of its own, its folder made. */
async function filesOf(sources: readonly string[], flags: TrackFlags, env: NodeJS.ProcessEnv): Promise<TrackFiles> {
  const first = sources[0] === undefined ? undefined : resolve(sources[0]);
  const stem = `${first === undefined ? 'all' : jobStem(first)}.track${sandboxNamePart(flags, env)}`;
  const statusFile = resolve(
    resultsFileName(
      flags.results,
      flags.resultsFormat,
      stem,
      first !== undefined && extname(first) === '.xlsx' ? 'xlsx' : 'csv',
    ),
  );
  // A workbook holds the worklist as its second sheet; a CSV has it beside it.
  const worklistFile =
    flags.worklist !== undefined
      ? resolve(flags.worklist)
      : isWorkbookFile(statusFile)
        ? undefined
        : statusFile.replace(/(\.[^./]+)?$/, (extension) => `.worklist${extension}`);
  const htmlFile = flags.html === undefined ? undefined : resolve(flags.html);
  const journalFile =
    flags.journal === undefined
      ? resolve(first === undefined ? '.' : dirname(first), `${stem}.journal.sqlite`)
      : resolve(flags.journal);
  const given = sources.map((source) => resolve(source));
  const written = [
    ['--results', statusFile],
    ...(worklistFile === undefined ? [] : [['--worklist', worklistFile]]),
    ['--journal', journalFile],
    ...(htmlFile === undefined ? [] : [['--html', htmlFile]]),
  ] as const;
  for (const [flag, file] of written) {
    if (given.includes(file)) throw new UsageError(`${flag} ${file}: expected a file of its own, got a source`);
    if (written.some(([other, otherFile]) => other !== flag && otherFile === file))
      throw new UsageError(
        `${flag} ${file}: expected a file of its own, got the same file as ` +
          (written.find(([other, otherFile]) => other !== flag && otherFile === file)?.[0] ?? 'another'),
      );
  }
  for (const [, file] of written) await mkdir(dirname(file), { recursive: true });
  return { statusFile, worklistFile, htmlFile, journalFile };
}

function tally(keys: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}

const countsOf = (groups: Record<string, { cases: number }>) =>
  Object.fromEntries(Object.entries(groups).map(([key, group]) => [key, group.cases]));
