import { Command } from 'commander';
import { relative } from 'node:path';
import {
  defaultKeepPersonalData,
  defaultKeepRecords,
  keepPersonalDataVariable,
  keepRecordsVariable,
} from '../../prune/policy.js';
import { pruneByPlan, type PruneReport, type PrunedJob } from '../../prune/run-prune.js';
import { resolvePrunePlan } from '../../prune/plan.js';
import { policySeconds } from '../../prune/periods.js';
import type { CliContext } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { addMetricsOptions } from '../flags.js';

interface PruneFlags {
  keepPersonalData?: string;
  keepRecords?: string;
  dryRun?: boolean;
  asOf?: string;
  record?: string;
}

const helpText = `
Examples:
  # what would go, and why each job stays: nothing is changed
  bulk-disputes prune out/ --dry-run

  # the nightly run, after track (the policy from the environment, or the defaults)
  bulk-disputes prune out/ --keep-personal-data 90d --keep-records 7y

  # what the policy will have removed by the end of the quarter
  bulk-disputes prune out/ --dry-run --as-of 2027-03-31

A job is one journal (import, migrate-v1, withdraw, track) and the files its runs wrote. Its clock
starts when its last case closed, as a track journal under the paths last saw it (or, with no case
at the service, at its last run). Once --keep-personal-data has passed, its journals are thinned
(cardholder details, rows as read, statements and messages quoting them removed, the space
rewritten) and its results, workbooks, payloads, review store, fix files and status files deleted;
the thinned journal still resumes, refuses another service and serves withdraw, track and report
by ids. Once --keep-records has passed, its remaining files go. A job with rows still to send,
cases still open or unseen, or a run holding its journal is left alone, and said why. Only files
the tool recognises as its own are touched; links are never followed.

Periods: a whole number and d, w, m or y (90d, 12w, 6m, 7y). Defaults ${defaultKeepPersonalData} and
${defaultKeepRecords}, or ${keepPersonalDataVariable} and ${keepRecordsVariable}.
Each job thinned or removed, and each run, is a line of the prune record (JSON lines, no personal
data): prune-record.jsonl in the first folder given, unless --record names another.

Exit 0 when every job due was pruned (jobs left alone are listed, not errors); 2 for a bad
period or a file prune cannot read (it stops there: every job listed before it is whole or
thinned, nothing else changed); 3 when the disk fails midway: run it again.
`;

/** `bulk-disputes prune`: thins and removes finished jobs' files by the retention policy (docs/data.md, "Retention"). */
export function pruneCommand(context: CliContext): Command {
  const command = new Command('prune')
    .description(
      'remove what finished jobs no longer need: their personal data once --keep-personal-data has passed since their last case closed, every file once --keep-records has',
    )
    .argument('[paths...]', 'folders of jobs (walked, links never followed) or journals (default: the current folder)')
    .option(
      '--keep-personal-data <period>',
      `how long a job's personal data stays after its last case closed (default: ${keepPersonalDataVariable} or ${defaultKeepPersonalData}; 0d: as soon as its last case closed)`,
    )
    .option(
      '--keep-records <period>',
      `how long its thinned journals stay (default: ${keepRecordsVariable} or ${defaultKeepRecords})`,
    )
    .option(
      '--dry-run',
      'list what would be thinned or removed, per job and file, with the bytes and the kinds of personal data; change nothing',
      false,
    )
    .option('--as-of <date>', 'with --dry-run: count from this date instead of now (YYYY-MM-DD or an ISO 8601 time)')
    .option('--record <file>', 'the prune record (default: prune-record.jsonl in the first folder given)');
  return addMetricsOptions(command)
    .addHelpText('after', helpText)
    .action(async (paths: string[], flags: PruneFlags) => {
      const plan = resolvePrunePlan({
        paths,
        keepPersonalData: flags.keepPersonalData,
        keepRecords: flags.keepRecords,
        dryRun: flags.dryRun,
        asOf: flags.asOf === undefined ? undefined : dateOf(flags.asOf),
        recordFile: flags.record,
        env: context.io.env,
        logger: context.logger,
      });
      // The policy goes with the metrics of a run that then fails too: the overdue alert reads it.
      context.metrics.record({ prune: { keepPersonalDataSeconds: policySeconds(plan.policy.keepPersonalData) } });
      const report = await pruneByPlan(plan);
      context.metrics.record({ prune: pruneFigures(report) });
      context.io.stdout.write(formatReport(report));
      context.io.stderr.write(`${summaryLine(report)}\n`);
      context.setExitCode(ExitCode.ok);
    });
}

function dateOf(text: string): Date {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(date.getTime()))
    throw new UsageError(`--as-of: expected a date (YYYY-MM-DD or an ISO 8601 time), got ${JSON.stringify(text)}`);
  return date;
}

const verbs: Record<PrunedJob['action'], [done: string, dryRun: string]> = {
  thin: ['thinned', 'would thin'],
  remove: ['removed', 'would remove'],
  finish: ['finished', 'would finish'],
  keep: ['kept', 'kept'],
  leave: ['left alone', 'left alone'],
};

/** One paragraph per job: what happened to it and why, then its files. */
export function formatReport(report: PruneReport): string {
  const here = process.cwd();
  const shown = (path: string) => (path.startsWith(here) ? relative(here, path) || '.' : path);
  const lines: string[] = [];
  for (const job of report.jobs) {
    const verb = verbs[job.action][report.dryRun ? 1 : 0];
    lines.push(`${verb}: ${shown(job.journal)} (${job.kind}): ${job.why}`);
    if (job.action === 'thin' && job.personalData.length > 0)
      lines.push(`  journal: ${report.dryRun ? 'would lose' : 'lost'} ${job.personalData.join(', ')}`);
    for (const file of job.files)
      lines.push(
        `  ${report.dryRun ? 'would delete' : 'deleted'} ${shown(file.path)} (${file.role}, ${bytes(file.bytes)}${file.personalData.length === 0 ? '' : `: ${file.personalData.join(', ')}`})`,
      );
  }
  for (const link of report.links) lines.push(`passed over: ${shown(link)} (a symbolic link: never followed)`);
  for (const path of report.busy) lines.push(`left alone: ${shown(path)} (in use: another process holds it)`);
  for (const file of report.unrecognised)
    lines.push(`left alone: ${shown(file.path)} (at a name of a job's ${file.role}, but it holds something else)`);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

function summaryLine(report: PruneReport): string {
  const count = (action: PrunedJob['action']) => report.jobs.filter((job) => job.action === action).length;
  const parts = [
    `${count('thin')} ${report.dryRun ? 'to thin' : 'thinned'}`,
    `${count('remove')} ${report.dryRun ? 'to remove' : 'removed'}`,
    ...(count('finish') > 0 ? [`${count('finish')} finished`] : []),
    `${count('keep')} kept`,
    `${count('leave')} left alone`,
  ];
  const freed = report.dryRun
    ? `; ${bytes(report.jobs.reduce((sum, job) => sum + (job.action === 'keep' || job.action === 'leave' ? 0 : job.bytes), 0))} would be deleted; nothing was changed`
    : `; ${bytes(report.bytesDeleted)} deleted${report.recordFile === undefined ? '' : `; recorded in ${report.recordFile}`}`;
  return `prune (${report.policy.keepPersonalData} personal data, ${report.policy.keepRecords} records): ${report.jobs.length} jobs: ${parts.join(', ')}${freed}`;
}

function pruneFigures(report: PruneReport) {
  const jobsByAction: Record<string, number> = { thin: 0, remove: 0, finish: 0, keep: 0, leave: 0 };
  for (const job of report.jobs) jobsByAction[job.action] = (jobsByAction[job.action] ?? 0) + 1;
  return {
    jobsByAction,
    bytesDeleted: report.bytesDeleted,
    keepPersonalDataSeconds: report.policySeconds.keepPersonalData,
  };
}

function bytes(count: number): string {
  if (count < 1024) return `${count} B`;
  if (count < 1024 * 1024) return `${(count / 1024).toFixed(1)} KiB`;
  return `${(count / 1024 / 1024).toFixed(1)} MiB`;
}
